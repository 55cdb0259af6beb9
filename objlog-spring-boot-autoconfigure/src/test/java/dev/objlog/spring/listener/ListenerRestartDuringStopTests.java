package dev.objlog.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.coordination.Lease;
import dev.objlog.coordination.LeaseId;
import dev.objlog.coordination.LeaseResult;
import dev.objlog.coordination.LeaseStore;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.coordination.InMemoryLeaseStore;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A group listener restarted while its stop is still releasing its leases: the start must wait for
 * the stop, so that the member it builds is the one the next stop closes. The interleaving is
 * forced: the stop's first lease release is held at a gate until the start has either run or is
 * waiting for the stop.
 */
class ListenerRestartDuringStopTests {
  private static final long WAIT = 30;

  /** Lease store whose releases, once armed, wait at a gate. */
  static final class GatedReleases implements LeaseStore {
    final InMemoryLeaseStore leases = new InMemoryLeaseStore(Clock.systemUTC());
    final AtomicBoolean armed = new AtomicBoolean();
    final CountDownLatch releaseEntered = new CountDownLatch(1);
    final CountDownLatch releaseGate = new CountDownLatch(1);

    @Override
    public LeaseResult tryAcquire(LeaseId id, String owner, Duration ttl) {
      return leases.tryAcquire(id, owner, ttl);
    }

    @Override
    public LeaseResult renew(LeaseId id, Lease held, Duration ttl) {
      return leases.renew(id, held, ttl);
    }

    @Override
    public boolean release(LeaseId id, Lease held) {
      if (armed.get()) {
        releaseEntered.countDown();
        try {
          releaseGate.await(WAIT, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return leases.release(id, held);
    }

    @Override
    public Optional<Lease> current(LeaseId id) {
      return leases.current(id);
    }
  }

  static class Grouped {
    @ObjlogListener(id = "restarted", stream = "orders", group = "g", autoStartup = "false")
    void on(String value) {
    }
  }

  @Test
  void aStartDuringAStopWaitsForItSoTheNextStopReleasesEveryLeaseAndEndsEveryThread() {
    GatedReleases store = new GatedReleases();
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
            ObjlogStreamsAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class,
            ObjlogListenerAutoConfiguration.class))
        .withBean(LeaseStore.class, () -> store)
        .withBean(Grouped.class)
        .withPropertyValues("objlog.store.type=memory", "objlog.streams.orders.partitions=2",
            "objlog.listener.poll-interval=1h")
        .run(context -> {
          ObjlogListenerEndpointRegistry registry = context.getBean(ObjlogListenerEndpointRegistry.class);
          ObjlogListenerContainer container = registry.getListenerContainer("restarted");
          registry.start("restarted");
          awaitHeld(store, 2);

          store.armed.set(true);
          Thread stopping = new Thread(() -> registry.stop("restarted"), "test-stop");
          stopping.start();
          assertThat(store.releaseEntered.await(WAIT, TimeUnit.SECONDS)).as("the stop reached its release").isTrue();
          Thread starting = new Thread(() -> registry.start("restarted"), "test-start");
          starting.start();
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT);
          while (starting.isAlive() && !container.lifecycleContended() && System.nanoTime() < deadline) {
            Thread.onSpinWait(); // until the start has run or waits for the stop
          }
          store.armed.set(false);
          store.releaseGate.countDown();
          stopping.join(TimeUnit.SECONDS.toMillis(WAIT));
          starting.join(TimeUnit.SECONDS.toMillis(WAIT));
          assertThat(container.isRunning()).as("the restart took effect").isTrue();

          registry.stop("restarted");
          awaitNoThreadsOf("restarted");
          assertThat(heldCount(store)).as("leases held after the final stop").isZero();
        });
  }

  private static int heldCount(GatedReleases store) {
    int held = 0;
    for (int p = 0; p < 2; p++) {
      for (LeaseId.Role role : LeaseId.Role.values()) {
        if (store.current(LeaseId.ofGroup("g", role, "orders", p)).isPresent()) {
          held++;
        }
      }
    }
    return held;
  }

  private static void awaitHeld(GatedReleases store, int partitions) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT);
    while (heldPartitions(store) < partitions) {
      assertThat(System.nanoTime() < deadline).as("the member took %s partitions", partitions).isTrue();
      Thread.sleep(10);
    }
  }

  private static int heldPartitions(GatedReleases store) {
    int held = 0;
    for (int p = 0; p < 2; p++) {
      if (store.current(LeaseId.ofGroup("g", LeaseId.Role.PARTITION, "orders", p)).isPresent()) {
        held++;
      }
    }
    return held;
  }

  /** Bounded: with the defect the forgotten member's threads never end. */
  private static void awaitNoThreadsOf(String listenerId) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT);
    List<String> alive;
    while (!(alive = threadsOf(listenerId)).isEmpty()) {
      assertThat(System.nanoTime() < deadline).as("threads still alive after stop: %s", alive).isTrue();
      Thread.sleep(10);
    }
  }

  private static List<String> threadsOf(String listenerId) {
    return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
        .filter(n -> n.startsWith("objlog-" + listenerId + "-")).toList();
  }
}
