package dev.objlog.internal.writer;

import dev.objlog.internal.metrics.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The meters of one partition writer (names in {@link MetricNames}, documented in {@code
 * docs/METRICS.md}). The in-flight gauges are removed again when the writer stops, so a later
 * writer of the same partition registers its own.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
final class WriterMeters {
  private final MeterRegistry registry;
  private final Tags tags;
  final Counter records;
  final Counter bytes;
  final Counter segments;
  final Counter headWrites;
  final Timer segmentFinalize;
  final Timer publish;
  final Timer commitLatency;
  private final List<Gauge> gauges;

  <T> WriterMeters(MeterRegistry registry, Tags tags, T writer, ToDoubleFunction<T> inflightSegments,
      ToDoubleFunction<T> inflightBytes) {
    this.registry = registry;
    this.tags = tags;
    records = Counter.builder(MetricNames.WRITER_RECORDS).tags(tags)
        .description("records accepted by append").register(registry);
    bytes = Counter.builder(MetricNames.WRITER_BYTES).tags(tags).baseUnit("bytes")
        .description("encoded record bytes accepted by append").register(registry);
    segments = Counter.builder(MetricNames.WRITER_SEGMENTS).tags(tags)
        .description("segments committed to the catalog").register(registry);
    headWrites = Counter.builder(MetricNames.WRITER_HEAD_WRITES).tags(tags)
        .description("catalog commits (one head write each, however many segments)").register(registry);
    segmentFinalize = Timer.builder(MetricNames.WRITER_SEGMENT_FINALIZE).tags(tags)
        .description("sealing and uploading one segment, retries included").register(registry);
    publish = Timer.builder(MetricNames.WRITER_PUBLISH).tags(tags)
        .description("one catalog commit of a group of segments").register(registry);
    commitLatency = Timer.builder(MetricNames.WRITER_COMMIT_LATENCY).tags(tags)
        .description("from the acceptance of a segment's first record to its commit").register(registry);
    gauges = List.of(
        Gauge.builder(MetricNames.WRITER_INFLIGHT_SEGMENTS, writer, inflightSegments).tags(tags)
            .description("segments cut but not yet committed").register(registry),
        Gauge.builder(MetricNames.WRITER_INFLIGHT_BYTES, writer, inflightBytes).tags(tags).baseUnit("bytes")
            .description("worst-case bytes of segments cut but not yet committed").register(registry));
  }

  void failure(String kind) {
    Counter.builder(MetricNames.WRITER_FAILURES).tags(tags).tag(MetricNames.TAG_OUTCOME, kind)
        .description("terminal writer failures by kind").register(registry).increment();
  }

  void commit(Duration publishTime, int segmentCount, Duration oldestRecordAge) {
    publish.record(publishTime);
    headWrites.increment();
    segments.increment(segmentCount);
    commitLatency.record(oldestRecordAge);
  }

  /** Removes the gauges that point at this writer. Idempotent. */
  void close() {
    gauges.forEach(registry::remove);
  }
}
