package dev.objlog.spring.listener;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The listeners' meters (docs/LISTENERS.md): timer {@code objlog.listener.process} (tags
 * listener, stream, outcome = success | failure), counter {@code objlog.listener.records} (tags
 * listener, stream, outcome = processed | failed | recovered), and per partition the gauges {@code
 * objlog.listener.lag.records} and {@code objlog.listener.lag.age} (seconds).
 *
 * <p>Thread-safety: safe for concurrent use.
 */
final class ListenerMetrics {
  private final @Nullable MeterRegistry registry;

  ListenerMetrics(@Nullable MeterRegistry registry) {
    this.registry = registry;
  }

  void registerPartition(ObjlogListenerContainer container, int partition) {
    if (registry == null) {
      return;
    }
    String listener = container.getListenerId();
    String stream = container.getStreamName();
    String p = Integer.toUnsignedString(partition);
    Gauge.builder("objlog.listener.lag.records", container, c -> c.lagRecords(partition))
        .description("Records committed to the partition that the listener has not processed yet")
        .tags("listener", listener, "stream", stream, "partition", p)
        .register(registry);
    Gauge.builder("objlog.listener.lag.age", container, c -> c.lagAgeSeconds(partition))
        .description("Age of the oldest record committed to the partition that the listener has not processed yet")
        .baseUnit("seconds")
        .tags("listener", listener, "stream", stream, "partition", p)
        .register(registry);
  }

  void processed(String listener, String stream, int records, long nanos) {
    if (registry == null) {
      return;
    }
    timer(listener, stream, "success").record(nanos, TimeUnit.NANOSECONDS);
    counter(listener, stream, "processed").increment(records);
  }

  void failed(String listener, String stream, long nanos) {
    if (registry == null) {
      return;
    }
    timer(listener, stream, "failure").record(nanos, TimeUnit.NANOSECONDS);
    counter(listener, stream, "failed").increment();
  }

  void recovered(String listener, String stream, int records) {
    if (registry == null) {
      return;
    }
    counter(listener, stream, "recovered").increment(records);
  }

  private Timer timer(String listener, String stream, String outcome) {
    return Timer.builder("objlog.listener.process")
        .description("Time the listener method took per invocation")
        .tags("listener", listener, "stream", stream, "outcome", outcome)
        .register(registry);
  }

  private Counter counter(String listener, String stream, String outcome) {
    return Counter.builder("objlog.listener.records")
        .description("Records handed to the listener, by outcome")
        .tags("listener", listener, "stream", stream, "outcome", outcome)
        .register(registry);
  }
}
