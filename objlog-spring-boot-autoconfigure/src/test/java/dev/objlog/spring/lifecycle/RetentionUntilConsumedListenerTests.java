package dev.objlog.spring.lifecycle;

import static dev.objlog.spring.lifecycle.UntilConsumedFixture.await;
import static dev.objlog.spring.lifecycle.UntilConsumedFixture.checkpointed;
import static dev.objlog.spring.lifecycle.UntilConsumedFixture.head;
import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.lifecycle.UntilConsumedRetention;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.spring.autoconfigure.lifecycle.ObjlogLifecycleAutoConfiguration;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.listener.ObjlogListener;
import dev.objlog.spring.listener.ObjlogListenerAutoConfiguration;
import dev.objlog.spring.listener.ObjlogListenerEndpointRegistry;
import dev.objlog.spring.listener.checkpoint.CheckpointKey;
import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import dev.objlog.spring.listener.checkpoint.CheckpointVersion;
import dev.objlog.spring.listener.checkpoint.JdbcCheckpointRepository;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import dev.objlog.spring.listener.checkpoint.TestDatabases;
import java.nio.file.Path;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Until-consumed retention waits for every {@code @ObjlogListener} of the stream, not only the
 * groups listed in {@code consumer-groups}: a listener's group counts as a registered consumer
 * wherever its checkpoints live (here JDBC on H2, and memory), while it runs and after it has been
 * stopped, and one that never checkpointed holds everything (of the partitions it is assigned). Each scenario has a listed group
 * "audit" that is done with everything (a checkpoint saved at the head), so retention would trim
 * it all if the listener did not count. The listener's progress is released record by record (a
 * semaphore, no sleeps); waits are bounded and nothing asserts on timing.
 */
class RetentionUntilConsumedListenerTests {
  static final Semaphore permits = new Semaphore(0);

  @TempDir Path root;

  static class Billing {
    @ObjlogListener(id = "billing", stream = "orders")
    void on(String value) throws InterruptedException {
      if (!permits.tryAcquire(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the test released no permit for " + value);
      }
    }
  }

  static class Reports {
    @ObjlogListener(id = "reports", stream = "orders", autoStartup = "false")
    void on(String value) {}
  }

  static class PartitionOne {
    @ObjlogListener(id = "partition-one", stream = "orders", partitions = "1", autoStartup = "false")
    void on(String value) {}
  }

  @BeforeEach
  void noPermits() {
    permits.drainPermits();
  }

  private ApplicationContextRunner runner(String checkpointStore) {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
            ObjlogStreamsAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class,
            ObjlogListenerAutoConfiguration.class, ObjlogLifecycleAutoConfiguration.class))
        .withPropertyValues("objlog.store.type=filesystem", "objlog.store.filesystem.root=" + root,
            "objlog.checkpoint.store=" + checkpointStore,
            "objlog.streams.orders.partitions=1", "objlog.streams.orders.writer.batch.max-records=1",
            "objlog.lifecycle.enabled=true", "objlog.lifecycle.interval=1h",
            "objlog.streams.orders.retention.consumer-groups=audit", // billing is not listed
            "objlog.streams.orders.retention.until-consumed.enabled=true");
  }

  @Test
  void aListenerWithJdbcCheckpointsHoldsRetentionAtItsCheckpointWithoutBeingListed() {
    runner("jdbc").withBean(DataSource.class, TestDatabases::h2).withBean(Billing.class).run(context -> {
      assertThat(context).hasNotFailed();
      ObjlogStreams streams = context.getBean(ObjlogStreams.class);
      ObjlogLifecycleScheduler scheduler = context.getBean(ObjlogLifecycleScheduler.class);
      CheckpointRepository checkpoints = context.getBean(CheckpointRepository.class);
      assertThat(checkpoints).isInstanceOf(JdbcCheckpointRepository.class);
      send(context.getBean(ObjlogTemplate.class), 0, 10);
      auditIsDoneWith(checkpoints, 10);
      permits.release(6);
      await(() -> checkpointed(checkpoints) == 6);

      assertThat(scheduler.runNow().retentionRequests()).isEqualTo(1);
      assertThat(head(streams).oldestLsn()).as("audit is done with 0..9, billing only with 0..5").isEqualTo(6);
      UntilConsumedRetention.Holder holder = holder(scheduler);
      assertThat(holder.consumer()).isEqualTo("billing");
      assertThat(holder.beforeLsn()).isEqualTo(6);

      // Once billing has applied everything, retention catches up.
      permits.release(4);
      await(() -> checkpointed(checkpoints) == 10);
      scheduler.runNow();
      assertThat(head(streams).oldestLsn()).as("everything consumed").isEqualTo(10);
      assertThat(scheduler.retentionHeldBy("orders", 0)).isEmpty();
    });
  }

  @Test
  void aStoppedListenerKeepsHoldingRetentionAtItsLastCheckpoint() {
    runner("memory").withBean(Billing.class).run(context -> {
      assertThat(context).hasNotFailed();
      ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
      ObjlogStreams streams = context.getBean(ObjlogStreams.class);
      ObjlogLifecycleScheduler scheduler = context.getBean(ObjlogLifecycleScheduler.class);
      CheckpointRepository checkpoints = context.getBean(CheckpointRepository.class);
      send(template, 0, 6);
      permits.release(6);
      await(() -> checkpointed(checkpoints) == 6);
      ObjlogListenerEndpointRegistry registry = context.getBean(ObjlogListenerEndpointRegistry.class);
      registry.stop("billing");
      assertThat(registry.getListenerContainer("billing").isRunning()).isFalse();

      send(template, 6, 10); // billing is stopped: it applies none of these
      auditIsDoneWith(checkpoints, 10);
      scheduler.runNow();
      assertThat(head(streams).oldestLsn()).as("held at billing's last checkpoint").isEqualTo(6);
      assertThat(holder(scheduler).consumer()).isEqualTo("billing");
      scheduler.runNow();
      assertThat(head(streams).oldestLsn()).as("and still on the next run").isEqualTo(6);
    });
  }

  @Test
  void aListenerThatNeverCheckpointedHoldsEverything() {
    runner("memory").withBean(Reports.class).run(context -> {
      assertThat(context).hasNotFailed();
      ObjlogStreams streams = context.getBean(ObjlogStreams.class);
      ObjlogLifecycleScheduler scheduler = context.getBean(ObjlogLifecycleScheduler.class);
      CheckpointRepository checkpoints = context.getBean(CheckpointRepository.class);
      assertThat(context.getBean(ObjlogListenerEndpointRegistry.class).getListenerContainer("reports").isRunning())
          .isFalse();
      send(context.getBean(ObjlogTemplate.class), 0, 10);
      auditIsDoneWith(checkpoints, 10);

      assertThat(scheduler.runNow().retentionRequests()).isZero();
      assertThat(head(streams).oldestLsn()).isZero();
      UntilConsumedRetention.Holder holder = holder(scheduler);
      assertThat(holder.consumer()).isEqualTo("reports");
      assertThat(holder.beforeLsn()).isZero();
    });
  }

  @Test
  void aListenerHoldsOnlyThePartitionsItIsAssigned() {
    runner("memory").withPropertyValues("objlog.streams.orders.partitions=2").withBean(PartitionOne.class)
        .run(context -> {
          assertThat(context).hasNotFailed();
          ObjlogLifecycleScheduler scheduler = context.getBean(ObjlogLifecycleScheduler.class);
          send(context.getBean(ObjlogTemplate.class), 0, 10);
          auditIsDoneWith(context.getBean(CheckpointRepository.class), 10);

          scheduler.runNow();
          assertThat(head(context.getBean(ObjlogStreams.class)).oldestLsn())
              .as("partition 0 is not partition-one's: only audit holds it").isEqualTo(10);
          assertThat(scheduler.retentionHeldBy("orders", 0)).isEmpty();
        });
  }

  private static UntilConsumedRetention.Holder holder(ObjlogLifecycleScheduler scheduler) {
    return scheduler.retentionHeldBy("orders", 0).orElseThrow();
  }

  /** Records {@code from} until {@code to}, one segment each. */
  private static void send(ObjlogTemplate template, int from, int to) throws Exception {
    for (int i = from; i < to; i++) {
      template.send("orders", 0, "r" + i).get(30, TimeUnit.SECONDS);
    }
  }

  private static void auditIsDoneWith(CheckpointRepository checkpoints, long nextLsn) {
    checkpoints.save(CheckpointKey.of("audit", "orders", 0), CursorCheckpoint.of("orders", 0, nextLsn),
        CheckpointVersion.ABSENT);
  }
}
