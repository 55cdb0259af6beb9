package dev.objlog.internal.writer;

import static dev.objlog.internal.writer.WriterFixtures.PARTITION;
import static dev.objlog.internal.writer.WriterFixtures.await;
import static dev.objlog.internal.writer.WriterFixtures.awaitFailure;
import static dev.objlog.internal.writer.WriterFixtures.manualCuts;
import static dev.objlog.internal.writer.WriterFixtures.open;
import static dev.objlog.internal.writer.WriterFixtures.readCommitted;
import static dev.objlog.internal.writer.WriterFixtures.record;
import static dev.objlog.internal.writer.WriterFixtures.segmentKey;
import static dev.objlog.internal.writer.WriterFixtures.segmentObjects;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.AppendResult;
import dev.objlog.Objlog;
import dev.objlog.PartitionWriter;
import dev.objlog.WriterAbortedException;
import dev.objlog.WriterBackpressureException;
import dev.objlog.WriterClosedException;
import dev.objlog.WriterOptions;
import dev.objlog.internal.writer.WriterFixtures.StoreKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class BackpressureAndAbortTests {
  @TempDir Path dir;

  /** Polls a condition for at most 30 s; the condition is about state, never about time. */
  static void eventually(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 30 s: " + what);
      }
      Thread.onSpinWait();
      Thread.yield();
    }
  }

  private static WriterOptions onePerSegment(int maxPending, boolean failWhenFull) {
    return manualCuts()
        .batch(Duration.ZERO, 1L << 20, 1)
        .backpressure(new WriterOptions.BackpressurePolicy(maxPending, 64L << 20, failWhenFull))
        .build();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void cuttingBlocksWhileMaxPendingSegmentsAreInFlightAndResumesWhenTheyCommit(StoreKind kind) {
    GatedStore store = new GatedStore(kind.open(dir));
    ExecutorService caller = Executors.newSingleThreadExecutor();
    try (Objlog log = open(store); PartitionWriter writer = log.openWriter(PARTITION, onePerSegment(2, false))) {
      store.closeUploadGate();
      AppendResult first = writer.append(record(1, "r0"));
      writer.append(record(1, "r1"));
      writer.append(record(1, "r2"));
      assertThat(writer.state().inflightSegments()).isEqualTo(2);
      assertThat(writer.state().bufferedRecords()).as("the third batch waits for room").isEqualTo(1);

      Thread[] appender = new Thread[1];
      CompletableFuture<AppendResult> blocked = CompletableFuture.supplyAsync(() -> {
        appender[0] = Thread.currentThread();
        return writer.append(record(1, "r3"));
      }, caller);
      eventually("the appender waits", () -> appender[0] != null
          && appender[0].getState() == Thread.State.WAITING);
      assertThat(blocked).isNotDone();
      assertThat(writer.state().inflightSegments()).isLessThanOrEqualTo(2);

      store.openUploadGate();
      AppendResult fourth = await(blocked);
      assertThat(fourth.lsn()).isEqualTo(3);
      assertThat(await(first.committed()).nextLsn()).isPositive();
      assertThat(writer.flush().nextLsn()).isEqualTo(4);
      assertThat(readCommitted(store, PARTITION).values()).containsExactly("r0", "r1", "r2", "r3");
    } finally {
      store.openUploadGate();
      caller.shutdownNow();
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aFailFastWriterRejectsTheRecordWhenFullAndStaysUsable(StoreKind kind) {
    GatedStore store = new GatedStore(kind.open(dir));
    try (Objlog log = open(store); PartitionWriter writer = log.openWriter(PARTITION, onePerSegment(1, true))) {
      store.closeUploadGate();
      writer.append(record(1, "r0"));
      writer.append(record(1, "r1"));
      assertThatThrownBy(() -> writer.append(record(1, "r2"))).isInstanceOf(WriterBackpressureException.class);
      assertThat(writer.state().nextLsn()).as("the rejected record took no LSN").isEqualTo(2);
      store.openUploadGate();
      assertThat(writer.flush().nextLsn()).isEqualTo(2);
      assertThat(writer.append(record(1, "r2")).lsn()).isEqualTo(2);
      writer.flush();
      assertThat(readCommitted(store, PARTITION).values()).containsExactly("r0", "r1", "r2");
    } finally {
      store.openUploadGate();
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void abortFailsUncommittedFuturesAndLeavesUploadedSegmentsAsOrphans(StoreKind kind) {
    GatedStore store = new GatedStore(kind.open(dir));
    try (Objlog log = open(store)) {
      PartitionWriter writer = log.openWriter(PARTITION, onePerSegment(8, false));
      store.closeCasGate();
      AppendResult publishing = writer.append(record(1, "r0"));
      eventually("the first publish reached the head", () -> store.casWaiting.get() == 1);
      AppendResult r1 = writer.append(record(1, "r1"));
      AppendResult r2 = writer.append(record(1, "r2"));
      eventually("all three segments uploaded", () -> segmentObjects(store, PARTITION).size() == 3);

      writer.abort();
      writer.abort();
      assertThat(awaitFailure(r1.committed())).isInstanceOf(WriterAbortedException.class);
      assertThat(awaitFailure(r2.committed())).isInstanceOf(WriterAbortedException.class);
      assertThat(writer.failure()).containsInstanceOf(WriterAbortedException.class);
      assertThatThrownBy(() -> writer.append(record(1, "late"))).isInstanceOf(WriterClosedException.class);

      store.openCasGate();
      assertThat(await(publishing.committed()).nextLsn())
          .as("a commit already under way completes on its own").isEqualTo(1);
      WriterFixtures.Committed committed = readCommitted(store, PARTITION);
      assertThat(committed.values()).containsExactly("r0");
      List<String> objects = segmentObjects(store, PARTITION);
      assertThat(objects).hasSize(3).contains(segmentKey(PARTITION, committed.segments().get(0)));
      writer.close();
    } finally {
      store.openCasGate();
    }
  }
}
