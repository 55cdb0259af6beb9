package dev.objlog.internal.memory;

import dev.objlog.MemoryPart;
import dev.objlog.internal.metrics.MetricNames;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.TimeUnit;

/**
 * The meters of a {@link MemoryPool} (documented in {@code docs/METRICS.md}). Binding is
 * idempotent: every log on the pool binds it to its registry, and a registry keeps one set. The
 * meters hold the pool weakly, as Micrometer's gauges do, and carry no stream or partition tags:
 * one budget spans logs. {@code objlog.memory.used} is one gauge per {@link MemoryPart} (tag
 * {@code part}).
 *
 * <p>Thread-safety: stateless.
 */
public final class MemoryMeters {
  private MemoryMeters() {}

  public static void bind(MeterRegistry registry, MemoryPool pool) {
    Gauge.builder(MetricNames.MEMORY_BUDGET, pool, MemoryPool::capacity).baseUnit("bytes")
        .description("size of the memory budget").register(registry);
    for (MemoryPart part : MemoryPart.values()) {
      Gauge.builder(MetricNames.MEMORY_USED, pool, p -> p.held(part)).baseUnit("bytes")
          .tag(MetricNames.TAG_PART, part.tag())
          .description("bytes writers (worst-case pending bytes) or caches hold from the memory budget")
          .register(registry);
    }
    Gauge.builder(MetricNames.MEMORY_RESERVED, pool, MemoryPool::reserved).baseUnit("bytes")
        .description("bytes of the memory budget guaranteed to open writers").register(registry);
    FunctionCounter.builder(MetricNames.MEMORY_WRITER_WAIT, pool,
            p -> p.waitNanos() / (double) TimeUnit.SECONDS.toNanos(1))
        .baseUnit("seconds").description("time writers waited for the memory budget, summed")
        .register(registry);
    FunctionCounter.builder(MetricNames.MEMORY_RECLAIMED, pool, MemoryPool::reclaimedBytes)
        .baseUnit("bytes").description("bytes caches evicted so that writers could grow")
        .register(registry);
    Gauge.builder(MetricNames.MEMORY_ZSTD_CONTEXTS, pool, MemoryPool::zstdContexts)
        .description("native zstd contexts readers and writers keep open").register(registry);
  }
}
