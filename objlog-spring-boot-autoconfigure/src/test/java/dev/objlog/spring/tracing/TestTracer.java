package dev.objlog.spring.tracing;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationView;
import io.micrometer.observation.transport.ReceiverContext;
import io.micrometer.observation.transport.SenderContext;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * A small tracer for tests, doing with W3C {@code traceparent} what Micrometer Tracing's
 * propagating handlers do: every observation is a span whose parent is the enclosing observation's
 * span; a sender context's span is injected into its carrier through the context's setter when it
 * starts, and a receiver context's span continues the trace its getter extracts from its carrier.
 * (Micrometer Tracing's test tracer is not among the offline build's artifacts.)
 */
public final class TestTracer implements ObservationHandler<Observation.Context> {
  /** The header a sender's span is written to: {@code 00-<trace id>-<span id>-01}. */
  public static final String TRACEPARENT = "traceparent";

  /** A finished span. */
  public record Span(String name, String traceId, String spanId, @Nullable String parentId, boolean error) {}

  private final AtomicLong ids = new AtomicLong(0x1000);
  private final Map<Observation.Context, Span> open = new ConcurrentHashMap<>();
  private final List<Span> finished = new CopyOnWriteArrayList<>();
  private final Semaphore stops = new Semaphore(0);

  @Override
  public boolean supportsContext(Observation.Context context) {
    return true;
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void onStart(Observation.Context context) {
    String traceId = null;
    String parentId = null;
    ObservationView parent = context.getParentObservation();
    Span parentSpan = parent == null ? null : open.get((Observation.Context) parent.getContextView());
    if (context instanceof ReceiverContext receiver && receiver.getCarrier() != null) {
      String header = (String) receiver.getGetter().get(receiver.getCarrier(), TRACEPARENT);
      if (header != null) {
        String[] parts = header.split("-");
        traceId = parts[1];
        parentId = parts[2];
      }
    }
    if (traceId == null && parentSpan != null) {
      traceId = parentSpan.traceId();
      parentId = parentSpan.spanId();
    }
    if (traceId == null) {
      traceId = String.format("%032x", ids.incrementAndGet());
    }
    Span span = new Span(context.getName(), traceId, String.format("%016x", ids.incrementAndGet()), parentId, false);
    open.put(context, span);
    if (context instanceof SenderContext sender && sender.getCarrier() != null) {
      sender.getSetter().set(sender.getCarrier(), TRACEPARENT, "00-" + span.traceId() + "-" + span.spanId() + "-01");
    }
  }

  @Override
  public void onStop(Observation.Context context) {
    Span span = open.remove(context);
    if (span != null) {
      finished.add(new Span(span.name(), span.traceId(), span.spanId(), span.parentId(), context.getError() != null));
      stops.release();
    }
  }

  /** Waits until {@code count} spans have finished in all, then returns those finished. */
  public List<Span> awaitFinished(int count) throws InterruptedException {
    if (!stops.tryAcquire(count, 30, TimeUnit.SECONDS)) {
      throw new AssertionError("expected " + count + " finished spans, had " + finished);
    }
    stops.release(count);
    return List.copyOf(finished);
  }

  /** The finished span named {@code name}. */
  public Span finished(String name) {
    return finished.stream().filter(s -> s.name().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no finished span " + name + " among " + finished));
  }

  public List<Span> finished() {
    return List.copyOf(finished);
  }
}
