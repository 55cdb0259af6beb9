package dev.objlog.spring.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.read.ReadRecord;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.listener.ObjlogListener;
import dev.objlog.spring.listener.ObjlogListenerAutoConfiguration;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * One trace spans a send and the listener invocation it causes: the template's sender context
 * writes the trace context into the record's headers, and the listener's receiver context reads
 * it back from the committed record.
 */
class SendToListenerTraceTests {

  static class Listener {
    final CountDownLatch done = new CountDownLatch(1);
    final List<ReadRecord> received = new CopyOnWriteArrayList<>();

    @ObjlogListener(id = "traced", stream = "orders")
    void on(ReadRecord record) {
      received.add(record);
      done.countDown();
    }
  }

  private final TestTracer tracer = new TestTracer();
  private final ObservationRegistry registry = ObservationRegistry.create();

  private ApplicationContextRunner runner() {
    registry.observationConfig().observationHandler(tracer);
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
            ObjlogStreamsAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class,
            ObjlogListenerAutoConfiguration.class))
        .withBean(ObservationRegistry.class, () -> registry)
        .withBean(Listener.class)
        .withPropertyValues("objlog.store.type=memory", "objlog.streams.orders.writer.batch.max-delay=1ms",
            "objlog.listener.poll-interval=1h");
  }

  @Test
  void theListenerSpanIsAChildOfTheSendSpanWhichIsAChildOfTheCallersSpan() {
    runner().withPropertyValues("objlog.template.observation-enabled=true").run(context -> {
      Observation request = Observation.start("request", registry);
      try (Observation.Scope scope = request.openScope()) {
        context.getBean(ObjlogTemplate.class).send("orders", 0, "a").get(30, TimeUnit.SECONDS);
      } finally {
        request.stop();
      }
      assertThat(context.getBean(Listener.class).done.await(30, TimeUnit.SECONDS)).isTrue();
      tracer.awaitFinished(3);

      TestTracer.Span caller = tracer.finished("request");
      TestTracer.Span send = tracer.finished("objlog.template");
      TestTracer.Span receive = tracer.finished("objlog.listener");
      assertThat(send.traceId()).isEqualTo(caller.traceId());
      assertThat(send.parentId()).isEqualTo(caller.spanId());
      assertThat(receive.traceId()).isEqualTo(caller.traceId());
      assertThat(receive.parentId()).isEqualTo(send.spanId());
      assertThat(context.getBean(Listener.class).received.get(0).headers())
          .anySatisfy(h -> assertThat(h.keyAsString()).isEqualTo(TestTracer.TRACEPARENT));
    });
  }

  @Test
  void withoutTheTemplateObservationTheListenerStartsATraceOfItsOwn() {
    runner().run(context -> {
      Observation request = Observation.start("request", registry);
      try (Observation.Scope scope = request.openScope()) {
        context.getBean(ObjlogTemplate.class).send("orders", 0, "a").get(30, TimeUnit.SECONDS);
      } finally {
        request.stop();
      }
      assertThat(context.getBean(Listener.class).done.await(30, TimeUnit.SECONDS)).isTrue();
      tracer.awaitFinished(2);

      assertThat(tracer.finished()).extracting(TestTracer.Span::name).containsExactlyInAnyOrder(
          "request", "objlog.listener"); // the listener observation is on by default
      TestTracer.Span receive = tracer.finished("objlog.listener");
      assertThat(receive.traceId()).isNotEqualTo(tracer.finished("request").traceId());
      assertThat(receive.parentId()).isNull();
      assertThat(context.getBean(Listener.class).received.get(0).headers()).isEmpty();
    });
  }
}
