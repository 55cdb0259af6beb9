package dev.objlog.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Each invocation is an {@code objlog.listener} observation with the documented keys. */
class ListenerObservationTests {

  static class Listener {
    final CountDownLatch done = new CountDownLatch(1);

    @ObjlogListener(id = "observed", stream = "orders")
    void on(String value) {
      done.countDown();
    }
  }

  @Test
  void invocationsAreObservedWithListenerIdStreamPartitionAndLsn() {
    List<Observation.Context> stopped = new CopyOnWriteArrayList<>();
    ObservationRegistry registry = ObservationRegistry.create();
    registry.observationConfig().observationHandler(new ObservationHandler<Observation.Context>() {
      @Override
      public boolean supportsContext(Observation.Context context) {
        return true;
      }

      @Override
      public void onStop(Observation.Context context) {
        stopped.add(context);
      }
    });
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
            ObjlogStreamsAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class,
            ObjlogListenerAutoConfiguration.class))
        .withBean(ObservationRegistry.class, () -> registry)
        .withBean(Listener.class)
        .withPropertyValues("objlog.store.type=memory", "objlog.streams.orders.writer.batch.max-delay=1ms",
            "objlog.listener.poll-interval=1h")
        .run(context -> {
          context.getBean(ObjlogTemplate.class).send("orders", 0, "a").get(30, TimeUnit.SECONDS);
          assertThat(context.getBean(Listener.class).done.await(30, TimeUnit.SECONDS)).isTrue();
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
          while (stopped.isEmpty()) {
            assertThat(System.nanoTime()).isLessThan(deadline);
            Thread.sleep(5);
          }
          Observation.Context observed = stopped.get(0);
          assertThat(observed).isInstanceOf(ObjlogListenerObservationContext.class);
          assertThat(observed.getName()).isEqualTo("objlog.listener");
          assertThat(observed.getLowCardinalityKeyValues())
              .contains(KeyValue.of("objlog.listener.id", "observed"), KeyValue.of("objlog.stream", "orders"));
          assertThat(observed.getHighCardinalityKeyValues())
              .contains(KeyValue.of("objlog.partition", "0"), KeyValue.of("objlog.lsn", "0"));
        });
  }
}
