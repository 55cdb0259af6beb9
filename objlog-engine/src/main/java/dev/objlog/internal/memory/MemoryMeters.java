package dev.objlog.internal.memory;

import dev.objlog.internal.metrics.MetricNames;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.TimeUnit;

/**
 * The meters of a {@link MemoryPool} (documented in {@code docs/METRICS.md}). Binding is
 * idempotent: every log on the pool binds it to its registry, and a registry keeps one set. The
 * meters hold the pool weakly, as Micrometer's gauges do, and carry no tags: one budget spans logs.
 *
 * <p>Thread-safety: stateless.
 */
public final class MemoryMeters {
  private MemoryMeters() {}

  public static void bind(MeterRegistry registry, MemoryPool pool) {
    Gauge.builder(MetricNames.MEMORY_BUDGET, pool, MemoryPool::capacity).baseUnit("bytes")
        .description("size of the memory budget").register(registry);
    Gauge.builder(MetricNames.MEMORY_USED, pool, MemoryPool::held).baseUnit("bytes")
        .description("worst-case pending bytes writers hold from the memory budget").register(registry);
    Gauge.builder(MetricNames.MEMORY_RESERVED, pool, MemoryPool::reserved).baseUnit("bytes")
        .description("bytes of the memory budget guaranteed to open writers").register(registry);
    FunctionCounter.builder(MetricNames.MEMORY_WRITER_WAIT, pool,
            p -> p.waitNanos() / (double) TimeUnit.SECONDS.toNanos(1))
        .baseUnit("seconds").description("time writers waited for the memory budget, summed")
        .register(registry);
  }
}
