package dev.objlog.replica;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.PartitionWriter;
import dev.objlog.SnapshotMarker;
import dev.objlog.WriterOptions;
import dev.objlog.store.ObjectStore;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Replicas on a real store: restart resumes after the saved cursor, a failed batch comes again,
 * and a fresh replica that bootstrapped from a snapshot after retention trimmed the log ends in the
 * state (by digest) of one that applied everything, also when a snapshot publish crashed between
 * its payload and its marker.
 */
public abstract class ReplicaScenarioContract {
  static final int P = 0;

  /** A fresh, empty store for each test. */
  protected abstract ObjectStore store();

  Objlog log;
  PartitionWriter writer;
  long policyVersion;

  @BeforeEach
  void openLog() {
    // A stream of its own per test, so that a store shared by a test class's tests works too.
    log = Objlog.open(store(), "tests/replica/" + java.util.UUID.randomUUID());
    // One record per segment, so retention trims exactly where it is asked to.
    writer = log.openWriter(P, WriterOptions.builder().batch(Duration.ofHours(1), 64L << 20, 1).build());
  }

  @AfterEach
  void closeLog() {
    writer.close();
    log.close();
  }

  /** Writes {@code key<i mod 7>=value<i>} for i in [from, to): later values overwrite earlier ones. */
  void write(int from, int to) {
    for (int i = from; i < to; i++) {
      writer.append(LogRecord.of(1_000 + i, "key" + (i % 7) + "=value" + i));
    }
    writer.flush();
  }

  Replica replica(String id, ReplicaApplier applier) {
    return Replica.builder(log, CursorStore.inBucket(log, id), applier).partitions(P).build();
  }

  /** Retention up to {@code beforeLsn}, held back by the snapshot gate, applied by the writer. */
  long trimBefore(long beforeLsn) {
    log.requestRetention(P, ++policyVersion, beforeLsn, log.snapshotGate());
    writer.applyRetention();
    return log.head(P).orElseThrow().oldestLsn();
  }

  static void awaitState(Replica replica, Replica.State state) throws InterruptedException {
    for (int i = 0; i < 6000 && replica.status(P).state() != state; i++) {
      Thread.sleep(10);
    }
    assertThat(replica.status(P).state()).as("partition state; failure %s", replica.status(P).failure())
        .isEqualTo(state);
  }

  @Test
  void restartResumesExactlyAfterTheLastSavedLsn() throws Exception {
    write(0, 10);
    KeyValueState state = new KeyValueState();
    try (Replica first = replica("resume", state)) {
      first.start();
      assertThat(state.awaitThrough(P, 10)).isTrue();
    }
    assertThat(CursorStore.inBucket(log, "resume").load(P).orElseThrow().checkpoint().nextLsn()).isEqualTo(10);
    write(10, 15);
    KeyValueState after = new KeyValueState();
    try (Replica second = replica("resume", after)) {
      second.start();
      assertThat(after.awaitThrough(P, 15)).isTrue();
    }
    assertThat(after.batches().get(0).firstLsn()).as("the first LSN after the restart").isEqualTo(10);
    assertThat(after.restored()).isEmpty();
  }

  @Test
  void aBatchWhoseApplyFailedIsDeliveredAgainAfterTheRestart() throws Exception {
    write(0, 4);
    KeyValueState state = new KeyValueState();
    try (Replica r = replica("redeliver", state)) {
      r.start();
      assertThat(state.awaitThrough(P, 4)).isTrue();
    }
    write(4, 8);
    ReplicaApplier failing = new ReplicaApplier() {
      @Override
      public void apply(ReplicaBatch batch) {
        throw new IllegalStateException("the application's database is down");
      }
    };
    try (Replica r = replica("redeliver", failing)) {
      r.start();
      awaitState(r, Replica.State.FAILED);
      assertThat(r.status(P).failure()).hasMessageContaining("database is down");
      assertThat(r.status(P).savedLsn()).isEqualTo(4);
    }
    try (Replica r = replica("redeliver", state)) {
      r.start();
      assertThat(state.awaitThrough(P, 8)).isTrue();
    }
    List<ReplicaBatch> batches = state.batches();
    assertThat(batches.get(batches.size() - 1).nextLsn()).isEqualTo(8);
    assertThat(batches.stream().filter(b -> b.firstLsn() == 4).count()).as("redelivered at LSN 4").isEqualTo(1);
  }

  @Test
  void freshReplicaBootstrappedFromASnapshotAfterRetentionMatchesOneThatAppliedEverything() throws Exception {
    SnapshotStore snapshots = SnapshotStore.inBucket(log.store());
    KeyValueState everything = new KeyValueState();
    try (Replica all = replica("all", everything)) {
      all.start();
      write(0, 20);
      assertThat(everything.awaitThrough(P, 20)).isTrue();
      SnapshotMarker marker = snapshots.publish(log, P, 19, everything.snapshot(P));
      write(20, 30);
      assertThat(trimBefore(30)).as("the snapshot gate holds retention at the snapshot").isEqualTo(20);
      assertThat(everything.awaitThrough(P, 30)).isTrue();

      KeyValueState fresh = new KeyValueState();
      try (Replica bootstrapped = replica("fresh", fresh)) {
        bootstrapped.start();
        assertThat(fresh.awaitThrough(P, 30)).isTrue();
      }
      assertThat(fresh.restored()).containsExactly(marker);
      assertThat(fresh.batches().get(0).firstLsn()).isEqualTo(marker.replayFromLsn());
      assertThat(fresh.digest()).isEqualTo(everything.digest());
      assertThat(fresh.values(P)).isEqualTo(everything.values(P)).hasSize(7);
    }
  }

  @Test
  void aCrashBetweenThePayloadAndTheMarkerLeavesThePreviousSnapshotInEffect() throws Exception {
    SnapshotStore snapshots = SnapshotStore.inBucket(log.store());
    KeyValueState everything = new KeyValueState();
    try (Replica all = replica("all", everything)) {
      all.start();
      write(0, 10);
      assertThat(everything.awaitThrough(P, 10)).isTrue();
      SnapshotMarker previous = snapshots.publish(log, P, 9, everything.snapshot(P));
      write(10, 20);
      assertThat(everything.awaitThrough(P, 20)).isTrue();

      CrashAfterPayload crashing = new CrashAfterPayload(snapshots);
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> crashing.publish(log, P, 19, everything.snapshot(P)))
          .isInstanceOf(CrashAfterPayload.Crash.class);
      assertThat(crashing.writtenKey).as("the payload was written").isNotNull();
      assertThat(snapshots.read(crashing.writtenKey)).isEqualTo(everything.snapshot(P));
      assertThat(log.latestSnapshot(P)).as("the marker still names the previous snapshot").contains(previous);

      assertThat(trimBefore(20)).as("retention stays at the snapshot in effect").isEqualTo(10);
      write(20, 25);
      assertThat(everything.awaitThrough(P, 25)).isTrue();

      KeyValueState fresh = new KeyValueState();
      try (Replica bootstrapped = replica("fresh", fresh)) {
        bootstrapped.start();
        assertThat(fresh.awaitThrough(P, 25)).isTrue();
      }
      assertThat(fresh.restored()).containsExactly(previous);
      assertThat(fresh.digest()).isEqualTo(everything.digest());
    }
  }

  @Test
  void aCursorBelowTheRetentionFloorRestoresTheSnapshot() throws Exception {
    write(0, 5);
    KeyValueState behind = new KeyValueState();
    try (Replica r = replica("behind", behind)) {
      r.start();
      assertThat(behind.awaitThrough(P, 5)).isTrue();
    }
    KeyValueState everything = new KeyValueState();
    try (Replica all = replica("all", everything)) {
      all.start();
      write(5, 15);
      assertThat(everything.awaitThrough(P, 15)).isTrue();
      SnapshotStore.inBucket(log.store()).publish(log, P, 14, everything.snapshot(P));
      assertThat(trimBefore(15)).isEqualTo(15);
    }
    try (Replica r = replica("behind", behind)) {
      r.start();
      write(15, 18);
      assertThat(behind.awaitThrough(P, 18)).isTrue();
      assertThat(behind.restored()).hasSize(1);
    }
    try (Replica all = replica("all", everything)) {
      all.start();
      assertThat(everything.awaitThrough(P, 18)).isTrue();
    }
    assertThat(behind.digest()).isEqualTo(everything.digest());
  }

  @Test
  void withoutASnapshotAReplicaThatNeedsTrimmedRecordsFailsWithABootstrapError() throws Exception {
    write(0, 6);
    log.requestRetention(P, 1, 3);
    writer.applyRetention();
    try (Replica r = replica("late", new KeyValueState())) {
      r.start();
      awaitState(r, Replica.State.FAILED);
      assertThat(r.status(P).failure()).isInstanceOf(ReplicaBootstrapException.class)
          .hasMessageContaining("were trimmed").hasMessageContaining("has no snapshot");
    }
    assertThat(CursorStore.inBucket(log, "late").load(P)).as("nothing saved").isEmpty();
  }

  /** The named crash point "after the payload, before the marker": the process dies there. */
  static final class CrashAfterPayload implements SnapshotStore {
    static final class Crash extends Error {
      private static final long serialVersionUID = 1L;

      Crash() {
        super("crash point: snapshot payload written, marker not updated");
      }
    }

    private final SnapshotStore inner;
    volatile String writtenKey;

    CrashAfterPayload(SnapshotStore inner) {
      this.inner = inner;
    }

    @Override
    public void write(String objectKey, byte[] payload) {
      inner.write(objectKey, payload);
      writtenKey = objectKey;
      throw new Crash();
    }

    @Override
    public byte[] read(String objectKey) {
      return inner.read(objectKey);
    }
  }
}
