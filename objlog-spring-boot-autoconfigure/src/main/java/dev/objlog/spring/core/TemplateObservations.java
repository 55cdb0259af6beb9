package dev.objlog.spring.core;

import dev.objlog.Header;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The template's {@code objlog.template} observation of each send ({@link
 * ObjlogTemplateObservation}) and the counter of trace headers a full record could not carry.
 * Kept apart from {@link ObjlogTemplate}, which only hands its sends through {@link #send}.
 *
 * <p>Thread-safety: settings are volatile, set before use; {@link #send} is safe for concurrent use.
 */
final class TemplateObservations {
  /** Trace headers left out because the record's headers were full; tag {@code stream}. */
  static final String TRACE_HEADERS_SKIPPED = "objlog.template.trace.headers.skipped";

  private volatile ObservationRegistry registry = ObservationRegistry.NOOP;
  private volatile boolean enabled;
  private volatile @Nullable ObjlogTemplateObservationConvention convention;
  private volatile @Nullable MeterRegistry meters;

  void setRegistry(ObservationRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "observationRegistry");
  }

  void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  void setConvention(@Nullable ObjlogTemplateObservationConvention convention) {
    this.convention = convention;
  }

  void setMeterRegistry(@Nullable MeterRegistry meters) {
    this.meters = meters;
  }

  /**
   * Sends through {@code send} under an observation when enabled: it starts before the record's
   * headers are final (a tracer adds its own), and stops when the returned future completes, with
   * the error when the send threw or its future failed. Disabled: {@code send} with the headers as
   * they are.
   */
  CompletableFuture<SendResult> send(String streamName, int partition, List<Header> headers,
      Function<List<Header>, CompletableFuture<SendResult>> send) {
    ObservationRegistry observations = registry;
    if (!enabled || observations.isNoop()) {
      return send.apply(headers);
    }
    ObjlogTemplateSenderContext context = new ObjlogTemplateSenderContext(streamName, partition, headers);
    Observation observation = ObjlogTemplateObservation.TEMPLATE_OBSERVATION.observation(convention,
        DefaultObjlogTemplateObservationConvention.INSTANCE, () -> context, observations);
    observation.start(); // handlers write the trace headers here
    countSkipped(streamName, context.getCarrier().skipped());
    CompletableFuture<SendResult> sent;
    try (Observation.Scope scope = observation.openScope()) {
      sent = send.apply(List.copyOf(context.getCarrier().headers()));
    } catch (RuntimeException | Error e) {
      observation.error(e);
      observation.stop();
      throw e;
    }
    // The caller's future completes after the observation stopped, so what it sees is recorded.
    return sent.whenComplete((result, failure) -> {
      if (failure != null) {
        observation.error(CommitFailures.unwrap(failure));
      } else {
        context.setResult(result);
      }
      observation.stop();
    });
  }

  private void countSkipped(String streamName, int skipped) {
    MeterRegistry m = meters;
    if (skipped > 0 && m != null) {
      Counter.builder(TRACE_HEADERS_SKIPPED).description("Trace headers left out of records whose headers were full")
          .tag("stream", streamName).register(m).increment(skipped);
    }
  }
}
