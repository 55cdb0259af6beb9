package dev.objlog.spring.listener;

import dev.objlog.Header;
import dev.objlog.read.ReadRecord;
import dev.objlog.spring.core.ObjlogHeaders;
import dev.objlog.spring.core.ObjlogTemplate;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.springframework.messaging.support.MessageBuilder;

/**
 * Appends each failed record, value unchanged, to a dead-letter stream with {@link ObjlogTemplate}
 * and waits until it is durable. The original record headers are kept and these are added:
 * {@code objlog_dlt_listener}, {@code objlog_dlt_stream}, {@code objlog_dlt_partition}, {@code
 * objlog_dlt_lsn}, {@code objlog_dlt_timestamp} (ISO-8601), {@code objlog_dlt_exception} (class
 * name), {@code objlog_dlt_message} and {@code objlog_dlt_attempts}. The dead-letter partition is
 * the original partition modulo the dead-letter stream's partition count.
 *
 * <p>A send that fails (or does not complete within the timeout) throws, so the partition stops
 * instead of moving past an unrecorded failure.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class DeadLetterRecoverer implements ListenerRecoverer {
  /** Prefix of the headers added to dead letters. */
  public static final String HEADER_PREFIX = ObjlogHeaders.PREFIX + "dlt_";

  private final ObjlogTemplate template;
  private final Function<ListenerFailure, String> destination;
  private final Duration timeout;

  /** Dead letters of every listener go to the stream named {@code deadLetterStream}. */
  public DeadLetterRecoverer(ObjlogTemplate template, String deadLetterStream) {
    this(template, failure -> deadLetterStream, Duration.ofSeconds(30));
  }

  public DeadLetterRecoverer(ObjlogTemplate template, Function<ListenerFailure, String> destination, Duration timeout) {
    this.template = Objects.requireNonNull(template, "template");
    this.destination = Objects.requireNonNull(destination, "destination");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
  }

  @Override
  public void recover(ListenerFailure failure) throws Exception {
    String stream = destination.apply(failure);
    int partitions = template.streams().stream(stream).partitions();
    for (ReadRecord record : failure.records()) {
      Map<String, Object> headers = new LinkedHashMap<>();
      for (Header h : record.headers()) {
        headers.put(h.keyAsString(), h.value());
      }
      headers.put(ObjlogHeaders.STREAM, stream);
      headers.put(ObjlogHeaders.PARTITION, Integer.remainderUnsigned(record.partition(), partitions));
      headers.put(HEADER_PREFIX + "listener", failure.listenerId());
      headers.put(HEADER_PREFIX + "stream", failure.streamName());
      headers.put(HEADER_PREFIX + "partition", Integer.toUnsignedString(record.partition()));
      headers.put(HEADER_PREFIX + "lsn", Long.toUnsignedString(record.lsn()));
      headers.put(HEADER_PREFIX + "timestamp", Instant.ofEpochMilli(record.timestampMs()).toString());
      headers.put(HEADER_PREFIX + "exception", failure.cause().getClass().getName());
      headers.put(HEADER_PREFIX + "message", String.valueOf(failure.cause().getMessage()));
      headers.put(HEADER_PREFIX + "attempts", Integer.toString(failure.attempts()));
      try {
        template.send(MessageBuilder.withPayload(record.valueBytes()).copyHeaders(headers).build())
            .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        throw e.getCause() instanceof Exception cause ? cause : e;
      }
    }
  }

  @Override
  public String toString() {
    return "DeadLetterRecoverer";
  }
}
