package dev.objlog.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.actuate.ObjlogEndpoint;
import dev.objlog.spring.actuate.ObjlogListenersHealthIndicator;
import dev.objlog.spring.autoconfigure.actuate.ObjlogEndpointAutoConfiguration;
import dev.objlog.spring.autoconfigure.actuate.ObjlogHealthAutoConfiguration;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Meters, the objlog endpoint's listener section and write operation, and the listeners' health. */
class ListenerObservabilityTests {

  static class BlockingListener {
    final Semaphore permits = new Semaphore(0);
    final CountDownLatch entered = new CountDownLatch(1);

    @ObjlogListener(id = "slow", stream = "orders", partitions = "0")
    void on(String value) throws InterruptedException {
      if (value.equals("boom")) {
        throw new IllegalStateException("boom");
      }
      entered.countDown();
      permits.acquire();
    }
  }

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
          ObjlogStreamsAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class,
          ObjlogListenerAutoConfiguration.class, ObjlogEndpointAutoConfiguration.class,
          ObjlogHealthAutoConfiguration.class))
      .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
      .withBean(BlockingListener.class)
      .withPropertyValues("objlog.store.type=memory", "objlog.streams.orders.partitions=1",
          "objlog.streams.orders.writer.batch.max-delay=1ms", "objlog.listener.poll-interval=1h",
          "objlog.listener.back-off.interval=0", "objlog.listener.back-off.max-retries=0",
          "management.endpoints.web.exposure.include=objlog", "objlog.health.probe-interval=0");

  @Test
  @SuppressWarnings("unchecked")
  void lagIsAGaugeAndInTheEndpointAndADeadListenerIsDown() throws Exception {
    runner.run(context -> {
      assertThat(context).hasNotFailed();
      ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
      BlockingListener listener = context.getBean(BlockingListener.class);
      template.send("orders", 0, "a").get(30, TimeUnit.SECONDS);
      template.send("orders", 0, "b").get(30, TimeUnit.SECONDS);
      assertThat(listener.entered.await(30, TimeUnit.SECONDS)).isTrue();
      MeterRegistry meters = context.getBean(MeterRegistry.class);
      // "a" is in the method: nothing processed yet, the head is at 2
      awaitTrue(() -> meters.get("objlog.listener.lag.records").tag("listener", "slow").tag("partition", "0")
          .gauge().value() == 2.0);

      Map<String, Object> body = context.getBean(ObjlogEndpoint.class).streams();
      Map<String, Object> slow = (Map<String, Object>) ((Map<String, Object>) body.get("listeners")).get("slow");
      assertThat(slow).containsEntry("stream", "orders").containsEntry("state", "RUNNING");
      Map<String, Object> p0 = ((List<Map<String, Object>>) slow.get("partitionStatus")).get(0);
      assertThat(p0).containsEntry("lagRecords", 2L).containsEntry("headNextLsn", 2L);

      listener.permits.release(2);
      awaitTrue(() -> meters.get("objlog.listener.lag.records").gauge().value() == 0.0);
      assertThat(meters.get("objlog.listener.records").tag("outcome", "processed").counter().count()).isEqualTo(2.0);
      assertThat(meters.get("objlog.listener.process").tag("outcome", "success").timer().count()).isEqualTo(2);

      ObjlogEndpoint endpoint = context.getBean(ObjlogEndpoint.class);
      assertThat(endpoint.listener("listeners", "slow", "pause")).isNotNull();
      ObjlogListenerContainer container = context.getBean(ObjlogListenerEndpointRegistry.class).getListenerContainer("slow");
      awaitTrue(container::isPaused);
      assertThat(endpoint.listener("listeners", "slow", "resume")).containsEntry("state", "RUNNING");
      assertThat(endpoint.listener("listeners", "nope", "pause")).isNull();

      ObjlogListenersHealthIndicator health = context.getBean(ObjlogListenersHealthIndicator.class);
      assertThat(health.health().getStatus()).isEqualTo(Status.UP);
      endpoint.listener("listeners", "slow", "stop");
      assertThat(health.health().getStatus()).as("stopped on purpose").isEqualTo(Status.UP);
      endpoint.listener("listeners", "slow", "start");
      template.send("orders", 0, "boom").get(30, TimeUnit.SECONDS);
      awaitTrue(() -> health.health().getStatus().equals(Status.DOWN));
      assertThat(meters.get("objlog.listener.records").tag("outcome", "failed").counter().count()).isEqualTo(1.0);
    });
  }

  @Test
  void lagAgeCountsFromTheOldestWaitingRecordWhilePausedAndIsZeroWhenCaughtUp() throws Exception {
    runner.run(context -> {
      assertThat(context).hasNotFailed();
      ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
      MeterRegistry meters = context.getBean(MeterRegistry.class);
      ObjlogListenerContainer container = context.getBean(ObjlogListenerEndpointRegistry.class).getListenerContainer("slow");
      java.util.function.DoubleSupplier age = () -> meters.get("objlog.listener.lag.age").tag("listener", "slow")
          .tag("partition", "0").gauge().value();
      container.pause();
      awaitTrue(container::isPaused);
      assertThat(age.getAsDouble()).as("caught up").isZero();

      // committed while paused: never read, yet the gauge ages from the oldest one's timestamp
      long sent = template.send("orders", 0, "x").get(30, TimeUnit.SECONDS).timestampMs();
      template.send("orders", 0, "y").get(30, TimeUnit.SECONDS);
      awaitTrue(() -> age.getAsDouble() > 0);
      assertThat(age.getAsDouble()).isLessThanOrEqualTo((System.currentTimeMillis() - sent) / 1000.0);

      container.resume();
      context.getBean(BlockingListener.class).permits.release(2);
      awaitTrue(() -> meters.get("objlog.listener.lag.records").tag("listener", "slow").gauge().value() == 0.0);
      assertThat(age.getAsDouble()).isZero();
    });
  }

  private static void awaitTrue(java.util.function.BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition within 30s").isLessThan(deadline);
      Thread.sleep(5);
    }
  }
}
