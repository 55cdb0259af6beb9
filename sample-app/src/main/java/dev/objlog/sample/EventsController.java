package dev.objlog.sample;

import dev.objlog.Header;
import dev.objlog.read.Freshness;
import dev.objlog.read.ReadRecord;
import dev.objlog.read.ReadResult;
import dev.objlog.spring.core.ObjlogHeaders;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.core.PartitionNotWritableException;
import dev.objlog.spring.core.SendResult;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /events} appends the request body (JSON or text, kept as sent, with its content
 * type as a record header) to the events stream and answers once it is durable; {@code GET
 * /events} reads records back.
 */
@RestController
@RequestMapping("/events")
class EventsController {
  private final ObjlogTemplate template;
  private final ObjlogStreams streams;
  private final String stream;
  private final AtomicInteger next = new AtomicInteger();

  EventsController(ObjlogTemplate template, ObjlogStreams streams,
      @Value("${sample.events.stream:events}") String stream) {
    this.template = template;
    this.streams = streams;
    this.stream = stream;
  }

  /**
   * Appends one event: to {@code partition} if given, else to the partition of {@code key} if
   * given, else round robin over the partitions this instance writes (with writer leases, the ones
   * it holds now).
   *
   * @return 200 with {stream, partition, lsn, timestamp} once the event is durable; 503 when this
   *     instance does not write the partition (see {@link #notWritable})
   */
  @PostMapping(consumes = {MediaType.APPLICATION_JSON_VALUE, MediaType.TEXT_PLAIN_VALUE, MediaType.ALL_VALUE})
  CompletableFuture<Map<String, Object>> append(@RequestBody byte[] body,
      @RequestHeader(name = HttpHeaders.CONTENT_TYPE, required = false) @Nullable String contentType,
      @RequestParam(required = false) @Nullable String key,
      @RequestParam(required = false) @Nullable Integer partition) {
    MessageBuilder<byte[]> message = MessageBuilder.withPayload(body).setHeader(ObjlogHeaders.STREAM, stream);
    if (partition != null) {
      message.setHeader(ObjlogHeaders.PARTITION, partition);
    } else if (key != null) {
      message.setHeader(ObjlogHeaders.KEY, key);
    } else {
      int[] writable = template.writablePartitions(stream).stream().toArray();
      // None held (another instance took them all, or a rebalance): partition 0 answers 503 below.
      message.setHeader(ObjlogHeaders.PARTITION,
          writable.length == 0 ? 0 : writable[Math.floorMod(next.getAndIncrement(), writable.length)]);
    }
    if (contentType != null) {
      message.setHeader("contentType", contentType);
    }
    return template.send(message.build()).thenApply(EventsController::describe);
  }

  /**
   * The events stream uses writer leases, so with several instances each writes only its share:
   * a request naming another instance's partition, or one that meets a rebalance (the partition
   * just moved), is answered 503 with the reason. Retrying (a keyed or round-robin request) finds
   * a partition held here once the lease round settles; a named partition must go to its holder.
   */
  @ExceptionHandler(PartitionNotWritableException.class)
  ResponseEntity<Map<String, Object>> notWritable(PartitionNotWritableException e) {
    return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, "1")
        .body(Map.of("stream", e.getStreamName(), "partition", e.getPartition(), "error", e.getMessage()));
  }

  private static Map<String, Object> describe(SendResult result) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("stream", result.streamName());
    body.put("partition", result.partition());
    body.put("lsn", result.lsn());
    body.put("timestamp", Instant.ofEpochMilli(result.timestampMs()));
    return body;
  }

  /** Up to {@code limit} events of {@code partition} from LSN {@code from}, and where to continue. */
  @GetMapping
  Map<String, Object> read(@RequestParam(defaultValue = "0") int partition,
      @RequestParam(defaultValue = "0") long from, @RequestParam(defaultValue = "100") int limit) {
    ReadResult result = streams.reader(stream).partition(partition).read(from, limit, Freshness.LATEST);
    List<Map<String, Object>> events = result.records().stream().map(EventsController::event).toList();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("stream", stream);
    body.put("partition", partition);
    body.put("events", events);
    body.put("nextLsn", result.nextLsn());
    return body;
  }

  private static Map<String, Object> event(ReadRecord record) {
    Map<String, Object> event = new LinkedHashMap<>();
    event.put("lsn", record.lsn());
    event.put("timestamp", Instant.ofEpochMilli(record.timestampMs()));
    Map<String, String> headers = new LinkedHashMap<>();
    for (Header h : record.headers()) {
      headers.put(h.keyAsString(), h.valueAsString());
    }
    event.put("headers", headers);
    event.put("value", record.valueAsString());
    return event;
  }
}
