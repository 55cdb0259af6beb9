package dev.objlog.replica;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.PartitionWriter;
import dev.objlog.SnapshotMarker;
import dev.objlog.WriterOptions;
import dev.objlog.read.ReadRecord;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example of docs/USAGE.md, "Replica", as it is printed there (between the markers). */
class ReplicaUsageExampleTests {
  @TempDir Path dir;

  // --- docs/USAGE.md "Replica" example: begin
  /** A materialised view of `key=value` records that publishes a snapshot every 5 records. */
  static final class OrdersView implements ReplicaApplier {
    final Map<String, String> view = new ConcurrentHashMap<>();
    private final Objlog log;
    private final SnapshotStore snapshots;
    private long lastSnapshotNext;

    OrdersView(Objlog log) {
      this.log = log;
      this.snapshots = SnapshotStore.inBucket(log.store());
    }

    @Override
    public void apply(ReplicaBatch batch) {
      for (ReadRecord r : batch.records()) {
        String[] kv = r.valueAsString().split("=", 2);
        view.put(kv[0], kv[1]); // setting a key again is harmless: at-least-once is fine
      }
      if (batch.nextLsn() - lastSnapshotNext >= 5) { // the view now holds everything before nextLsn
        snapshots.publish(log, batch.partition(), batch.nextLsn() - 1, encode(view));
        lastSnapshotNext = batch.nextLsn();
      }
    }

    @Override
    public void restore(SnapshotMarker marker, byte[] payload) {
      view.clear();
      view.putAll(decode(payload));
      lastSnapshotNext = marker.replayFromLsn();
    }

    static byte[] encode(Map<String, String> view) {
      return new TreeMap<>(view).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
          .collect(Collectors.joining("\n")).getBytes(StandardCharsets.UTF_8);
    }

    static Map<String, String> decode(byte[] payload) {
      return new String(payload, StandardCharsets.UTF_8).lines().map(l -> l.split("=", 2))
          .collect(Collectors.toMap(kv -> kv[0], kv -> kv[1]));
    }
  }
  // --- docs/USAGE.md "Replica" example: end

  @Test
  void theExampleInUsageMdIsThisOne() throws Exception {
    DocExamples.assertPrinted(Path.of("src/test/java/dev/objlog/replica/ReplicaUsageExampleTests.java"),
        "docs/USAGE.md \"Replica\" example", Path.of("../docs/USAGE.md"));
  }

  @Test
  void theViewOfAReplicaThatStartedFromTheSnapshotEqualsTheOneThatReadEverything() throws Exception {
    try (Objlog log = Objlog.open(FilesystemObjectStore.open(dir), "shop/orders");
        PartitionWriter writer = log.openWriter(0, WriterOptions.builder().batch(Duration.ofHours(1), 64L << 20, 1).build())) {
      OrdersView first = new OrdersView(log);
      try (Replica replica = Replica.builder(log, CursorStore.inBucket(log, "orders-view"), first)
          .partitions(0).build()) {
        replica.start();
        for (int i = 0; i < 12; i++) {
          writer.append(LogRecord.of(i, "order" + (i % 4) + "=state" + i)).committed().join();
        }
        for (int i = 0; i < 6000 && replica.status(0).savedLsn() != 12; i++) {
          Thread.sleep(10);
        }
        assertThat(replica.status(0).savedLsn()).isEqualTo(12);
        assertThat(replica.lag(0).records()).isZero();
      }
      SnapshotMarker newest = log.latestSnapshot(0).orElseThrow();
      log.requestRetention(0, 1, 12, log.snapshotGate());
      writer.applyRetention();
      assertThat(log.head(0).orElseThrow().oldestLsn()).isEqualTo(newest.replayFromLsn()).isPositive();

      OrdersView fresh = new OrdersView(log);
      try (Replica replica = Replica.builder(log, CursorStore.inBucket(log, "another-view"), fresh)
          .partitions(0).build()) {
        replica.start();
        for (int i = 0; i < 6000 && replica.status(0).savedLsn() != 12; i++) {
          Thread.sleep(10);
        }
      }
      assertThat(fresh.view).isEqualTo(first.view).hasSize(4);
    }
  }
}
