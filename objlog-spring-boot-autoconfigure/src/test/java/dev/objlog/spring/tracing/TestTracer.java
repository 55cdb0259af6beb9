package dev.objlog.spring.tracing;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.transport.SenderContext;
import io.micrometer.tracing.Span.Builder;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.handler.TracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Micrometer Tracing's test tracer ({@link SimpleTracer}) behind Micrometer Tracing's own
 * observation handlers, as an application with tracing has them: a sender context's span is
 * injected into its carrier, a receiver context's span continues the trace extracted from its
 * carrier, any other observation is a span whose parent is the enclosing one. The propagation
 * format is W3C {@code traceparent}, written by the small {@link Propagator} below (a real
 * application gets it from its Brave or OpenTelemetry bridge).
 */
public final class TestTracer implements ObservationHandler<Observation.Context> {
  /** The header a sender's span is written to: {@code 00-<trace id>-<span id>-01}. */
  public static final String TRACEPARENT = "traceparent";

  /** A finished span. */
  public record Span(String name, String traceId, String spanId, @Nullable String parentId, boolean error) {}

  private final SimpleTracer tracer = new SimpleTracer();
  private final ObservationHandler<Observation.Context> handlers;
  private final Semaphore stops = new Semaphore(0);
  /** Observation name by span id: Micrometer's handlers name a span by the contextual name. */
  private final Map<String, String> names = new ConcurrentHashMap<>();
  private static final AtomicLong ROOT_IDS = new AtomicLong(0x5eed);

  public TestTracer() {
    Propagator w3c = new TraceparentPropagator(tracer);
    handlers = new ObservationHandler.FirstMatchingCompositeObservationHandler(
        new PropagatingSenderTracingObservationHandler<>(tracer, w3c) {
          @Override
          public io.micrometer.tracing.Span createSenderSpan(SenderContext context) {
            return rooted(super.createSenderSpan(context)); // before the handler injects its context
          }
        },
        new PropagatingReceiverTracingObservationHandler<>(tracer, w3c),
        new DefaultTracingObservationHandler(tracer));
  }

  @Override
  public boolean supportsContext(Observation.Context context) {
    return handlers.supportsContext(context);
  }

  @Override
  public void onStart(Observation.Context context) {
    handlers.onStart(context);
    TracingObservationHandler.TracingContext tracing = context.get(TracingObservationHandler.TracingContext.class);
    if (tracing != null && tracing.getSpan() != null) {
      names.put(rooted(tracing.getSpan()).context().spanId(), context.getName());
    }
  }

  /**
   * SimpleTracer gives a span started without a parent no ids (only {@code nextSpan()} makes
   * them); a real tracer starts a new trace, so this does too.
   */
  private static io.micrometer.tracing.Span rooted(io.micrometer.tracing.Span span) {
    if (span instanceof SimpleSpan simple && simple.context().traceId().isEmpty()) {
      String id = String.format("%016x", ROOT_IDS.incrementAndGet());
      simple.context().setTraceId(id);
      simple.context().setSpanId(id);
    }
    return span;
  }

  @Override
  public void onError(Observation.Context context) {
    handlers.onError(context);
  }

  @Override
  public void onEvent(Observation.Event event, Observation.Context context) {
    handlers.onEvent(event, context);
  }

  @Override
  public void onScopeOpened(Observation.Context context) {
    handlers.onScopeOpened(context);
  }

  @Override
  public void onScopeClosed(Observation.Context context) {
    handlers.onScopeClosed(context);
  }

  @Override
  public void onScopeReset(Observation.Context context) {
    handlers.onScopeReset(context);
  }

  @Override
  public void onStop(Observation.Context context) {
    handlers.onStop(context); // ends the span
    stops.release();
  }

  /**
   * Waits until {@code count} spans have ended in all (the listener's ends on its container's
   * thread after the test saw the record), then returns those ended.
   */
  public List<Span> awaitFinished(int count) throws InterruptedException {
    if (!stops.tryAcquire(count, 30, TimeUnit.SECONDS)) {
      throw new AssertionError("expected " + count + " finished spans, had " + finished());
    }
    stops.release(count);
    return finished();
  }

  /** The finished span named {@code name}. */
  public Span finished(String name) {
    return finished().stream().filter(s -> s.name().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no finished span " + name + " among " + finished()));
  }

  public List<Span> finished() {
    return tracer.getSpans().stream().filter(s -> s.getEndTimestamp().toEpochMilli() != 0)
        .map(this::view).toList();
  }

  private Span view(SimpleSpan s) {
    String parent = s.getParentId();
    return new Span(names.getOrDefault(s.getSpanId(), s.getName()), s.getTraceId(), s.getSpanId(), parent == null || parent.isEmpty() ? null : parent,
        s.getError() != null);
  }

  /** W3C trace context: {@code traceparent: 00-<trace id>-<span id>-01}. */
  private record TraceparentPropagator(SimpleTracer tracer) implements Propagator {
    @Override
    public List<String> fields() {
      return List.of(TRACEPARENT);
    }

    @Override
    public <C> void inject(TraceContext context, @Nullable C carrier, Setter<C> setter) {
      setter.set(carrier, TRACEPARENT, "00-" + context.traceId() + "-" + context.spanId() + "-01");
    }

    @Override
    public <C> Builder extract(C carrier, Getter<C> getter) {
      String header = getter.get(carrier, TRACEPARENT);
      if (header == null) {
        return tracer.spanBuilder();
      }
      String[] parts = header.split("-");
      TraceContext remote = tracer.traceContextBuilder().traceId(parts[1]).spanId(parts[2]).sampled(true).build();
      return tracer.spanBuilder().setParent(remote);
    }
  }
}
