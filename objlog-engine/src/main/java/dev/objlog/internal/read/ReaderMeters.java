package dev.objlog.internal.read;

import dev.objlog.internal.LogRuntime;
import dev.objlog.internal.metrics.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

/**
 * The meters of one partition's reader, registered once (names in {@link MetricNames}).
 *
 * <p>Thread-safety: safe for concurrent use (Micrometer meters are).
 */
final class ReaderMeters {
  final Timer read;
  final Counter records;
  final Counter blockReads;
  final Counter segmentOpens;
  final Counter retries;
  final Counter refreshChanged;
  final Counter refreshUnchanged;
  final Counter refreshMissing;
  final Counter refreshFailed;
  final Counter refreshLocal;
  final Counter wakeupPoll;
  final Counter wakeupLocal;
  final Counter wakeupRead;

  ReaderMeters(LogRuntime runtime, int partition) {
    MeterRegistry registry = runtime.meters();
    Tags tags = runtime.tags(partition);
    read = Timer.builder(MetricNames.READER_READ).tags(tags).register(registry);
    records = registry.counter(MetricNames.READER_RECORDS, tags);
    blockReads = registry.counter(MetricNames.READER_BLOCK_READS, tags);
    segmentOpens = registry.counter(MetricNames.READER_SEGMENT_OPENS, tags);
    retries = registry.counter(MetricNames.READER_RETRIES, tags);
    refreshChanged = outcome(registry, MetricNames.READER_HEAD_REFRESH, tags, "changed");
    refreshUnchanged = outcome(registry, MetricNames.READER_HEAD_REFRESH, tags, "unchanged");
    refreshMissing = outcome(registry, MetricNames.READER_HEAD_REFRESH, tags, "missing");
    refreshFailed = outcome(registry, MetricNames.READER_HEAD_REFRESH, tags, "failed");
    refreshLocal = outcome(registry, MetricNames.READER_HEAD_REFRESH, tags, "local");
    wakeupPoll = outcome(registry, MetricNames.READER_TAIL_WAKEUPS, tags, "poll");
    wakeupLocal = outcome(registry, MetricNames.READER_TAIL_WAKEUPS, tags, "local");
    wakeupRead = outcome(registry, MetricNames.READER_TAIL_WAKEUPS, tags, "read");
  }

  private static Counter outcome(MeterRegistry registry, String name, Tags tags, String outcome) {
    return registry.counter(name, tags.and(MetricNames.TAG_OUTCOME, outcome));
  }

  Counter wakeup(HeadTracker.Source source) {
    return switch (source) {
      case POLL -> wakeupPoll;
      case LOCAL -> wakeupLocal;
      case READ -> wakeupRead;
    };
  }
}
