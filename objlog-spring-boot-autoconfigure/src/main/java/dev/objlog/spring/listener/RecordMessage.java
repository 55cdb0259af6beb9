package dev.objlog.spring.listener;

import dev.objlog.Header;
import dev.objlog.read.ReadRecord;
import dev.objlog.spring.core.ObjlogHeaders;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHeaders;

/**
 * What a listener method is invoked with, as a spring-messaging {@link Message}: one record (its
 * value bytes as the payload) or, for batch listeners, the records of a batch (a {@code
 * List<byte[]>} payload). The headers are the record's headers (values as UTF-8 text; of a
 * repeated name the last one) and objlog's: {@link ObjlogHeaders#STREAM} (the stream name),
 * {@link ObjlogHeaders#PARTITION} ({@code Integer}), {@link ObjlogHeaders#LSN} ({@code Long},
 * unsigned) and {@link ObjlogHeaders#TIMESTAMP} ({@code Long} epoch milliseconds); a batch carries
 * only the stream and partition. They have no {@code id} or {@code timestamp} header of their own.
 *
 * <p>Custom {@link org.springframework.messaging.handler.invocation.HandlerMethodArgumentResolver}s
 * may read the records with {@link #records()}.
 *
 * <p>Thread-safety: immutable. The headers are built on first use (a method whose arguments read
 * none, such as one taking only the payload, never pays for them); threads that race to build them
 * build equal ones.
 */
public final class RecordMessage implements Message<Object> {
  private final String streamName;
  private final List<ReadRecord> records;
  private final boolean batch;
  private final @Nullable Acknowledgment acknowledgment;
  private volatile @Nullable MessageHeaders headers;

  RecordMessage(String streamName, List<ReadRecord> records, boolean batch, @Nullable Acknowledgment acknowledgment) {
    this.streamName = Objects.requireNonNull(streamName, "streamName");
    this.records = List.copyOf(records);
    if (this.records.isEmpty() || (!batch && this.records.size() != 1)) {
      throw new IllegalArgumentException("a record message holds one record, a batch message at least one");
    }
    this.batch = batch;
    this.acknowledgment = acknowledgment;
  }

  private static Map<String, Object> headersOf(String streamName, List<ReadRecord> records, boolean batch) {
    Map<String, Object> out = new LinkedHashMap<>();
    ReadRecord first = records.get(0);
    if (!batch) {
      for (Header h : first.headers()) {
        out.put(h.keyAsString(), h.valueAsString());
      }
    }
    out.put(ObjlogHeaders.STREAM, streamName);
    out.put(ObjlogHeaders.PARTITION, first.partition());
    if (!batch) {
      out.put(ObjlogHeaders.LSN, first.lsn());
      out.put(ObjlogHeaders.TIMESTAMP, first.timestampMs());
    }
    return out;
  }

  /** The stream the records were read from. */
  public String streamName() {
    return streamName;
  }

  /** The record (one) or the batch's records, in LSN order. */
  public List<ReadRecord> records() {
    return records;
  }

  /** Whether this is a batch listener's message. */
  public boolean isBatch() {
    return batch;
  }

  /** The record of a record listener's message. */
  public ReadRecord record() {
    if (batch) {
      throw new IllegalStateException("a batch message holds " + records.size() + " records; use records()");
    }
    return records.get(0);
  }

  /** In MANUAL mode: what the method acknowledges with; null otherwise. */
  public @Nullable Acknowledgment acknowledgment() {
    return acknowledgment;
  }

  /** The record's value bytes, or (batch) a {@code List<byte[]>} of the values. */
  @Override
  public Object getPayload() {
    if (!batch) {
      return records.get(0).valueBytes();
    }
    List<byte[]> values = new ArrayList<>(records.size());
    for (ReadRecord r : records) {
      values.add(r.valueBytes());
    }
    return values;
  }

  @Override
  public MessageHeaders getHeaders() {
    MessageHeaders h = headers;
    if (h == null) {
      h = new RecordHeaders(headersOf(streamName, records, batch));
      headers = h;
    }
    return h;
  }

  @Override
  public String toString() {
    ReadRecord first = records.get(0);
    return "RecordMessage[" + streamName + "/" + Integer.toUnsignedString(first.partition()) + " at LSN "
        + Long.toUnsignedString(first.lsn()) + (batch ? ", " + records.size() + " records" : "") + "]";
  }

  /** Headers without the generated id and timestamp: a record already has both, kept apart. */
  private static final class RecordHeaders extends MessageHeaders {
    private static final long serialVersionUID = 1L;

    RecordHeaders(Map<String, Object> headers) {
      super(headers, ID_VALUE_NONE, -1L);
    }
  }
}
