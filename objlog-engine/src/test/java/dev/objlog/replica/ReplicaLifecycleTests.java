package dev.objlog.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.InvalidArgumentException;
import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.PartitionWriter;
import dev.objlog.store.memory.MemoryObjectStore;
import dev.objlog.testing.MutableTicker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Pause, resume, lag, a clean stop, several partitions and a local cursor directory. */
class ReplicaLifecycleTests {
  private final Objlog log = Objlog.open(new MemoryObjectStore(), "tests/replica-lifecycle");
  private final MutableTicker ticker = new MutableTicker(Long.MAX_VALUE - 1_000);
  private final ExecutorService loops = Executors.newCachedThreadPool();
  @TempDir Path dir;

  @AfterEach
  void close() {
    loops.shutdownNow();
    log.close();
  }

  private static void write(PartitionWriter writer, int from, int to) {
    for (int i = from; i < to; i++) {
      writer.append(LogRecord.of(i, "key" + i + "=value" + i));
    }
    writer.flush();
  }

  private static void awaitState(Replica replica, int partition, Replica.State state) throws InterruptedException {
    for (int i = 0; i < 6000 && replica.status(partition).state() != state; i++) {
      Thread.sleep(10);
    }
    assertThat(replica.status(partition).state()).isEqualTo(state);
  }

  /** Waits until the partition saved its cursor at {@code lsn} (the applier returns before the save). */
  private static void awaitSaved(Replica replica, int partition, long lsn) throws InterruptedException {
    for (int i = 0; i < 6000 && replica.status(partition).savedLsn() != lsn; i++) {
      Thread.sleep(10);
    }
    assertThat(replica.status(partition).savedLsn()).isEqualTo(lsn);
  }

  @Test
  void aPausedReplicaAppliesNothingUntilResumedAndReportsItsLagInRecordsAndAge() throws Exception {
    KeyValueState state = new KeyValueState();
    try (PartitionWriter writer = log.openWriter(0);
        Replica replica = Replica.builder(log, CursorStore.inBucket(log, "paused"), state)
            .partitions(0).executor(loops).ticker(ticker).idleWait(Duration.ofMillis(20)).build()) {
      replica.start();
      write(writer, 0, 3);
      awaitSaved(replica, 0, 3);
      assertThat(replica.lag(0)).isEqualTo(new Replica.Lag(0, Duration.ZERO));

      replica.pause();
      awaitState(replica, 0, Replica.State.PAUSED);
      write(writer, 3, 8);
      Replica.Lag first = replica.lag(0);
      assertThat(first.records()).as("the local commit refreshed the reader's head").isEqualTo(5);
      ticker.advance(Duration.ofSeconds(42));
      assertThat(replica.lag(0)).isEqualTo(new Replica.Lag(5, first.age().plusSeconds(42)));
      assertThat(state.appliedThrough(0)).as("held while paused").isEqualTo(3);

      replica.resume();
      awaitSaved(replica, 0, 8);
      assertThat(replica.lag(0)).isEqualTo(new Replica.Lag(0, Duration.ZERO));
    }
  }

  @Test
  void aCleanStopSavesThePositionEvenWhenNoBatchWasApplied() {
    Replica replica = Replica.builder(log, CursorStore.inBucket(log, "idle"), new KeyValueState())
        .partitions(5).executor(loops).build();
    replica.start();
    replica.stop();
    assertThat(replica.status(5).state()).isEqualTo(Replica.State.STOPPED);
    assertThat(CursorStore.inBucket(log, "idle").load(5).orElseThrow().checkpoint().nextLsn()).isZero();
    assertThatThrownBy(replica::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("build a new one");
  }

  @Test
  void partitionsAreAppliedApartAndResumeFromALocalCursorDirectory() throws Exception {
    KeyValueState state = new KeyValueState();
    try (PartitionWriter p1 = log.openWriter(1); PartitionWriter p2 = log.openWriter(2)) {
      write(p1, 0, 4);
      write(p2, 0, 2);
      try (Replica replica = Replica.builder(log, CursorStore.inDirectory(dir, "local"), state)
          .partitions(1, 2).executor(loops).batchLimit(1).build()) {
        replica.start();
        awaitSaved(replica, 1, 4);
        awaitSaved(replica, 2, 2);
        assertThat(replica.statuses()).extracting(Replica.PartitionStatus::partition).containsExactly(1, 2);
      }
      assertThat(state.batches()).allSatisfy(b -> assertThat(b.records()).hasSize(1));
      write(p2, 2, 3);
      KeyValueState again = new KeyValueState();
      try (Replica replica = Replica.builder(log, CursorStore.inDirectory(dir, "local"), again)
          .partitions(1, 2).executor(loops).build()) {
        replica.start();
        assertThat(again.awaitThrough(2, 3)).isTrue();
      }
      assertThat(again.batches()).extracting(ReplicaBatch::partition, ReplicaBatch::firstLsn)
          .containsExactly(org.assertj.core.groups.Tuple.tuple(2, 2L));
    }
  }

  @Test
  void aReplicaWithoutPartitionsOrAskedForAnotherOneIsRefused() {
    assertThatThrownBy(() -> Replica.builder(log, CursorStore.inBucket(log, "x"), new KeyValueState()).build())
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("partitions(");
    Replica replica = Replica.builder(log, CursorStore.inBucket(log, "x"), new KeyValueState()).partitions(0).build();
    assertThatThrownBy(() -> replica.status(9)).isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("follows [0]");
    assertThat(replica.partitions()).isEqualTo(List.of(0));
  }
}
