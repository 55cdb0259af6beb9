package dev.objlog.internal.metrics;

/**
 * Every meter name objlog registers, in one place; {@code docs/METRICS.md} documents each, and a
 * test keeps the two in step. Every meter carries the tags {@link #TAG_STREAM} and, where it is
 * about one partition, {@link #TAG_PARTITION}.
 */
public final class MetricNames {
  private MetricNames() {}

  public static final String TAG_STREAM = "stream";
  public static final String TAG_PARTITION = "partition";
  public static final String TAG_OUTCOME = "outcome";
  public static final String TAG_OPERATION = "operation";
  /** Tag of {@link #MEMORY_USED}: a {@code dev.objlog.MemoryPart#tag()}. */
  public static final String TAG_PART = "part";

  // writer
  /** Counter: records accepted by {@code append}. */
  public static final String WRITER_RECORDS = "objlog.writer.records";
  /** Counter: encoded record bytes accepted by {@code append}. */
  public static final String WRITER_BYTES = "objlog.writer.bytes";
  /** Counter: segments committed to the catalog. */
  public static final String WRITER_SEGMENTS = "objlog.writer.segments";
  /** Counter: catalog head writes (one per commit; group commit makes it less than one per segment). */
  public static final String WRITER_HEAD_WRITES = "objlog.writer.head.writes";
  /** Timer: sealing and uploading one segment. */
  public static final String WRITER_SEGMENT_FINALIZE = "objlog.writer.segment.finalize";
  /** Timer: one catalog commit (page writes and the head compare-and-swap). */
  public static final String WRITER_PUBLISH = "objlog.writer.publish";
  /** Timer: from a record's acceptance to its commit. */
  public static final String WRITER_COMMIT_LATENCY = "objlog.writer.commit.latency";
  /** Gauge: segments cut but not yet committed. */
  public static final String WRITER_INFLIGHT_SEGMENTS = "objlog.writer.inflight.segments";
  /** Gauge: worst-case bytes of segments cut but not yet committed. */
  public static final String WRITER_INFLIGHT_BYTES = "objlog.writer.inflight.bytes";
  /** Counter: terminal writer failures, tagged with {@link #TAG_OUTCOME} (the failure kind). */
  public static final String WRITER_FAILURES = "objlog.writer.failures";

  // memory budget (no stream or partition tags: one budget spans logs)
  /** Gauge: the memory budget's size in bytes. */
  public static final String MEMORY_BUDGET = "objlog.memory.budget";
  /** Gauge: bytes one part (writers or a kind of cache, tag {@link #TAG_PART}) holds from the budget now. */
  public static final String MEMORY_USED = "objlog.memory.used";
  /** Gauge: bytes guaranteed to the open writers. */
  public static final String MEMORY_RESERVED = "objlog.memory.reserved";
  /** Function counter: seconds writers waited for the budget, summed. */
  public static final String MEMORY_WRITER_WAIT = "objlog.memory.writer.wait";
  /** Function counter: bytes caches evicted so that writers could grow. */
  public static final String MEMORY_RECLAIMED = "objlog.memory.reclaimed";
  /** Gauge: native zstd contexts readers (decompression) and writers (compression) keep open. */
  public static final String MEMORY_ZSTD_CONTEXTS = "objlog.memory.zstd.contexts";

  // reader
  /** Timer: one read call. */
  public static final String READER_READ = "objlog.reader.read";
  /** Counter: records returned by reads. */
  public static final String READER_RECORDS = "objlog.reader.records";
  /**
   * Counter: catalog head refreshes, tagged {@link #TAG_OUTCOME} changed / unchanged / missing /
   * failed; {@code local} counts heads handed over by a writer in this JVM without any request.
   */
  public static final String READER_HEAD_REFRESH = "objlog.reader.head.refresh";
  /** Counter: segment block reads from the store (cache misses). */
  public static final String READER_BLOCK_READS = "objlog.reader.block.reads";
  /** Counter: tailer wake-ups, tagged {@link #TAG_OUTCOME} poll / local / read. */
  public static final String READER_TAIL_WAKEUPS = "objlog.reader.tail.wakeups";
  /** Counter: segments opened (trailer, preamble and block index fetched and validated; cache misses). */
  public static final String READER_SEGMENT_OPENS = "objlog.reader.segment.opens";
  /** Counter: reads retried against a refreshed head after a catalog page or segment was missing. */
  public static final String READER_RETRIES = "objlog.reader.retries";

  // retention and lifecycle
  /**
   * Counter: retention requests, tagged {@link #TAG_OUTCOME} created / advanced / unchanged /
   * held_back / regression.
   */
  public static final String RETENTION_REQUESTS = "objlog.retention.requests";
  /**
   * Counter: retention applications by a writer, tagged {@link #TAG_OUTCOME} applied / clamped
   * (applied only up to a snapshot or a retention hold) / held (nothing applied: held at the
   * floor) / noop / failed.
   */
  public static final String RETENTION_APPLIES = "objlog.retention.applies";
  /**
   * Gauge: how long, in seconds, the consumer with the lowest applied floor has held the
   * partition's until-consumed retention back without advancing (0 while nothing is held).
   */
  public static final String RETENTION_CONSUMER_HELD_SECONDS = "objlog.retention.consumer.held.seconds";
  /**
   * Gauge: bytes of committed segments the lowest consumer alone keeps from until-consumed
   * retention (what retention would trim without it; 0 while nothing is held).
   */
  public static final String RETENTION_CONSUMER_HELD_BYTES = "objlog.retention.consumer.held.bytes";
  /** Counter: snapshot markers recorded, tagged {@link #TAG_OUTCOME} recorded / unchanged. */
  public static final String SNAPSHOT_MARKERS = "objlog.snapshot.markers";
  /**
   * Counter: reclaimer passes, tagged {@link #TAG_OPERATION} reclaim / scrub and {@link
   * #TAG_OUTCOME} done / has_more / failed / lease_held / lease_lost.
   */
  public static final String LIFECYCLE_PASSES = "objlog.lifecycle.passes";
  /** Counter: objects the reclaimer deleted, tagged {@link #TAG_OPERATION}. */
  public static final String LIFECYCLE_DELETED_OBJECTS = "objlog.lifecycle.deleted.objects";
  /** Counter: bytes of the objects the reclaimer deleted, tagged {@link #TAG_OPERATION}. */
  public static final String LIFECYCLE_DELETED_BYTES = "objlog.lifecycle.deleted.bytes";
  /** Gauge: pages in the partition's scrub quarantine after the last scrub pass. */
  public static final String LIFECYCLE_QUARANTINE = "objlog.lifecycle.quarantine";
  /** Counter: reclaimer passes that lost their lease to another owner mid-pass. */
  public static final String LIFECYCLE_LEASE_LOST = "objlog.lifecycle.lease.lost";
}
