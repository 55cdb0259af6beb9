package dev.objlog.replica;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.PartitionWriter;
import dev.objlog.RetentionGate;
import dev.objlog.WriterOptions;
import dev.objlog.lifecycle.ConsumerFloors;
import dev.objlog.lifecycle.UntilConsumedRetention;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import dev.objlog.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example of docs/USAGE.md, "Retention until consumed", as it is printed there. */
class UntilConsumedUsageExampleTests {
  @TempDir Path dir;

  @Test
  void theExampleInUsageMdIsThisOne() throws Exception {
    DocExamples.assertPrinted(Path.of("src/test/java/dev/objlog/replica/UntilConsumedUsageExampleTests.java"),
        "docs/USAGE.md \"Retention until consumed\" example", Path.of("../docs/USAGE.md"));
  }

  @Test
  void retentionFollowsTheSlowerConsumerAndNeverPassesIt() throws Exception {
    try (Objlog log = Objlog.open(FilesystemObjectStore.open(dir), "shop/orders");
        PartitionWriter writer = log.openWriter(0, WriterOptions.builder().batch(Duration.ofHours(1), 64L << 20, 1).build())) {
      for (int i = 0; i < 10; i++) {
        writer.append(LogRecord.of(i, "order" + i)).committed().join();
      }
      AtomicLong applied = new AtomicLong();
      ReplicaApplier view = batch -> applied.addAndGet(batch.records().size());
      CursorStore billingCursors = CursorStore.inBucket(log, "billing"); // a consumer in another process
      billingCursors.save(CursorCheckpoint.of(log.streamId(), 0, 4), CursorStore.Version.ABSENT);

      // --- docs/USAGE.md "Retention until consumed" example: begin
      ConsumerRegistry registry = ConsumerRegistry.on(log);
      Replica replica = Replica.builder(log, CursorStore.inBucket(log, "orders-view"), view)
          .partitions(0)
          .consumerRegistry(registry, "orders-view") // publishes its applied floor after every save
          .build();
      replica.start();

      UntilConsumedRetention policy = UntilConsumedRetention.builder(log,
              registry.and(ConsumerFloors.inBucket(log))) // in-process replicas + bucket checkpoints
          .keepRecords(2)                                 // keep 2 consumed records below the lowest floor
          .expireAfter(null)                              // default: a silent consumer holds forever
          .build();
      RetentionGate.Hold hold = log.holdRetention(policy.gate()); // this process's writers clamp to it

      // on a schedule, in the process that writes the partition:
      UntilConsumedRetention.Outcome outcome = policy.run(0);
      writer.applyRetention();
      outcome.heldBy().ifPresent(h -> System.out.println(
          h.consumer() + " holds retention at LSN " + h.beforeLsn() + " for " + h.heldFor()));
      // --- docs/USAGE.md "Retention until consumed" example: end

      Await.until("the replica applied everything", () -> registry.floors(0).stream()
          .anyMatch(f -> f.consumer().equals("orders-view") && f.beforeLsn() == 10));
      outcome = policy.run(0);
      writer.applyRetention();
      assertThat(outcome.heldBy().orElseThrow().consumer()).isEqualTo("billing");
      assertThat(log.head(0).orElseThrow().oldestLsn()).as("billing's floor 4 minus 2 kept").isEqualTo(2);

      // the billing consumer catches up; the replica's hold alone would now keep LSN 10 on
      billingCursors.save(CursorCheckpoint.of(log.streamId(), 0, 10), billingCursors.load(0).orElseThrow().version());
      policy.run(0);
      writer.applyRetention();
      assertThat(log.head(0).orElseThrow().oldestLsn()).isEqualTo(8);
      replica.close();
      hold.close();
    }
  }
}
