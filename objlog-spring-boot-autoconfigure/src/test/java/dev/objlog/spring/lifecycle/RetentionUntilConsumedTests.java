package dev.objlog.spring.lifecycle;

import static dev.objlog.spring.lifecycle.UntilConsumedFixture.await;
import static dev.objlog.spring.lifecycle.UntilConsumedFixture.checkpointed;
import static dev.objlog.spring.lifecycle.UntilConsumedFixture.head;
import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.actuate.ObjlogEndpoint;
import dev.objlog.spring.autoconfigure.lifecycle.ObjlogLifecycleAutoConfiguration;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.core.StoreActivity;
import dev.objlog.spring.listener.ObjlogListener;
import dev.objlog.spring.listener.ObjlogListenerAutoConfiguration;
import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code objlog.streams.<name>.retention.until-consumed}: with a real listener group whose progress
 * the test releases record by record (a semaphore, no sleeps), the schedule trims what the group
 * has checkpointed (minus the keep window) and nothing more, even for a request made without a gate,
 * and the endpoint names the group that holds retention back. Waits are bounded; nothing asserts
 * on timing.
 */
class RetentionUntilConsumedTests {
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

  @ParameterizedTest
  @ValueSource(strings = {"memory", "bucket"})
  void retentionFollowsTheListenerGroupsCheckpointAndNeverPassesIt(String checkpointStore) {
    permits.drainPermits();
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
            ObjlogStreamsAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class,
            ObjlogListenerAutoConfiguration.class, ObjlogLifecycleAutoConfiguration.class))
        .withBean(Billing.class)
        .withPropertyValues("objlog.store.type=filesystem", "objlog.store.filesystem.root=" + root,
            "objlog.checkpoint.store=" + checkpointStore,
            "objlog.streams.orders.partitions=1", "objlog.streams.orders.writer.batch.max-records=1",
            "objlog.lifecycle.enabled=true", "objlog.lifecycle.interval=1h",
            "objlog.streams.orders.retention.consumer-groups=billing",
            "objlog.streams.orders.retention.until-consumed.enabled=true",
            "objlog.streams.orders.retention.until-consumed.keep-records=1")
        .run(context -> {
          assertThat(context).hasNotFailed();
          ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
          ObjlogStreams streams = context.getBean(ObjlogStreams.class);
          ObjlogLifecycleScheduler scheduler = context.getBean(ObjlogLifecycleScheduler.class);
          CheckpointRepository checkpoints = context.getBean(CheckpointRepository.class);
          for (int i = 0; i < 10; i++) {
            template.send("orders", 0, "r" + i).get(30, TimeUnit.SECONDS); // one segment per record
          }
          permits.release(6);
          await(() -> checkpointed(checkpoints) == 6);

          ObjlogLifecycleScheduler.Run run = scheduler.runNow();
          assertThat(run.retentionRequests()).isEqualTo(1);
          assertThat(head(streams).oldestLsn()).as("billing applied 0..5, one kept").isEqualTo(5);
          assertThat(scheduler.retentionHeldBy("orders", 0).orElseThrow().consumer()).isEqualTo("billing");
          ObjlogEndpoint endpoint = new ObjlogEndpoint(streams, template, new StoreActivity(),
              context.getBean(ObjlogMaintenance.class));
          endpoint.setLifecycleScheduler(scheduler);
          @SuppressWarnings("unchecked")
          Map<String, Object> heldBy = (Map<String, Object>) endpoint.partition("orders", 0).get("retentionHeldBy");
          assertThat(heldBy).containsEntry("consumer", "billing").containsEntry("beforeLsn", 6L);

          // A request made by hand without a gate (as another process could) is clamped by the writer.
          context.getBean(ObjlogMaintenance.class).requestRetention("orders", 0, 10);
          scheduler.runNow();
          assertThat(head(streams).oldestLsn()).isEqualTo(5);

          // Once billing has applied everything, retention catches up.
          permits.release(4);
          await(() -> checkpointed(checkpoints) == 10);
          scheduler.runNow();
          assertThat(head(streams).oldestLsn()).isEqualTo(9);
          assertThat(scheduler.retentionHeldBy("orders", 0)).isEmpty();
          assertThat(endpoint.partition("orders", 0)).containsEntry("retentionHeldBy", null);
        });
  }
}
