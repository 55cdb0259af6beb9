package dev.objlog.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogHeaders;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.messaging.handler.annotation.Header;

/** {@code concurrency}: how many invocations of one listener run at once. */
class ListenerConcurrencyTests {
  private static final long WAIT = 30;

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
          ObjlogStreamsAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class,
          ObjlogListenerAutoConfiguration.class))
      .withPropertyValues("objlog.store.type=memory", "objlog.streams.orders.partitions=2",
          "objlog.streams.orders.writer.batch.max-delay=1ms", "objlog.listener.poll-interval=1h");

  static class SingleLane {
    final Semaphore proceed = new Semaphore(0);
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger maxInFlight = new AtomicInteger();
    final AtomicInteger done = new AtomicInteger();

    @ObjlogListener(id = "one-lane", stream = "orders", concurrency = "${test.concurrency:1}")
    void on(String value, @Header(ObjlogHeaders.PARTITION) int partition) throws InterruptedException {
      maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      if (partition == 0) {
        proceed.acquire();
      }
      inFlight.decrementAndGet();
      done.incrementAndGet();
    }
  }

  @Test
  void withConcurrencyOneThePartitionsTakeTurns() throws Exception {
    runner.withBean(SingleLane.class).run(context -> {
      assertThat(context).hasNotFailed();
      SingleLane listener = context.getBean(SingleLane.class);
      ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
      template.send("orders", 0, "holds the lane").get(WAIT, TimeUnit.SECONDS);
      awaitTrue(() -> listener.inFlight.get() == 1);
      template.send("orders", 1, "waits for it").get(WAIT, TimeUnit.SECONDS);
      // Partition 1's thread parks on the lane partition 0 holds, instead of invoking.
      awaitTrue(() -> Thread.getAllStackTraces().keySet().stream()
          .filter(t -> t.getName().equals("objlog-one-lane-1"))
          .anyMatch(t -> LockSupport.getBlocker(t) != null
              && LockSupport.getBlocker(t).getClass().getName().startsWith("java.util.concurrent.locks.ReentrantLock")));
      assertThat(listener.done.get()).isZero();
      listener.proceed.release();
      awaitTrue(() -> listener.done.get() == 2);
      assertThat(listener.maxInFlight.get()).isEqualTo(1);
    });
  }

  static class TwoLanes {
    final CyclicBarrier bothInside = new CyclicBarrier(2);

    @ObjlogListener(id = "two-lanes", stream = "orders", concurrency = "2")
    void on(String value) throws Exception {
      bothInside.await(WAIT, TimeUnit.SECONDS);
    }
  }

  @Test
  void withConcurrencyTwoTwoPartitionsRunAtOnce() throws Exception {
    runner.withBean(TwoLanes.class).run(context -> {
      TwoLanes listener = context.getBean(TwoLanes.class);
      ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
      template.send("orders", 0, "a").get(WAIT, TimeUnit.SECONDS);
      template.send("orders", 1, "b").get(WAIT, TimeUnit.SECONDS);
      // Both invocations meet at the barrier: they ran at the same time.
      awaitTrue(() -> listener.bothInside.getNumberWaiting() == 0 && !listener.bothInside.isBroken()
          && context.getBean(ObjlogListenerEndpointRegistry.class).getListenerContainer("two-lanes")
              .getPartitionStatuses().stream().allMatch(s -> s.position() == 1));
    });
  }

  @Test
  void aConcurrencyBelowOneFailsStartup() {
    runner.withBean(SingleLane.class).withPropertyValues("test.concurrency=0")
        .run(context -> assertThat(context).getFailure()
            .hasMessageContaining("concurrency must be at least 1"));
  }

  private static void awaitTrue(java.util.function.BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition within %ss", WAIT).isLessThan(deadline);
      Thread.sleep(5);
    }
  }
}
