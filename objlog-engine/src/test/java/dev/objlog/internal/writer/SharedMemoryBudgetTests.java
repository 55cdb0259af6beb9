package dev.objlog.internal.writer;

import static dev.objlog.internal.writer.BackpressureAndAbortTests.eventually;
import static dev.objlog.internal.writer.WriterFixtures.await;
import static dev.objlog.internal.writer.WriterFixtures.logOptions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.AppendResult;
import dev.objlog.LogRecord;
import dev.objlog.MemoryBudget;
import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionWriter;
import dev.objlog.RecordExceedsPendingBudgetException;
import dev.objlog.WriterBackpressureException;
import dev.objlog.WriterOptions;
import dev.objlog.store.memory.MemoryObjectStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * Writers of two logs on one {@link MemoryBudget}: reservations, borrowing, exhaustion and the
 * record that can never fit. Uploads are held at a gate so nothing commits until the test says so.
 */
class SharedMemoryBudgetTests {
  private static final int RECORD_VALUE = 256 << 10;
  private static final int BLOCK = 64 << 10;

  /** One record per segment, many segments allowed: only the memory budget limits these writers. */
  private static WriterOptions onePerSegment(boolean failWhenFull) {
    return WriterFixtures.manualCuts()
        .batch(Duration.ZERO, 64L << 20, 1)
        .backpressure(new WriterOptions.BackpressurePolicy(1024, 256L << 20, failWhenFull))
        .pipeline(new WriterOptions.Pipeline(BLOCK, WriterOptions.Pipeline.DEFAULT.codec(),
            WriterOptions.Pipeline.DEFAULT.zstdLevel(), WriterOptions.Pipeline.DEFAULT.hashAlgorithm(), null))
        .build();
  }

  private static LogRecord big(int i) {
    byte[] value = new byte[RECORD_VALUE];
    value[0] = (byte) i;
    return LogRecord.of(1, value);
  }

  private static long reservation(WriterOptions options) {
    return Batcher.reservation(options);
  }

  private static long segmentOf(LogRecord record, WriterOptions options) {
    return dev.objlog.format.segment.SegmentEncoder.worstCaseSegmentSize(1, record.encodedSize(),
        options.pipeline().blockBytes(), options.pipeline().codec());
  }

  @Test
  void aWriterThatExhaustedTheBudgetCannotTakeAnotherPartitionsReservation() {
    WriterOptions options = onePerSegment(true);
    long reservation = reservation(options);
    long lendable = 4 * segmentOf(big(0), options);
    MemoryBudget budget = MemoryBudget.ofBytes(2 * reservation + lendable);
    GatedStore store = new GatedStore(new MemoryObjectStore());
    ObjlogOptions logOptions = logOptions().memoryBudget(budget).build();
    try (Objlog first = Objlog.open(store, "tests/budget-a", logOptions);
        Objlog second = Objlog.open(store, "tests/budget-b", logOptions)) {
      PartitionWriter hog = first.openWriter(1, options);
      PartitionWriter quiet = second.openWriter(2, options);
      assertThat(budget.reservedBytes()).isEqualTo(2 * reservation);
      store.closeUploadGate();

      int accepted = 0;
      WriterBackpressureException full = null;
      while (full == null) {
        try {
          hog.append(big(accepted));
          accepted++;
        } catch (WriterBackpressureException e) {
          full = e;
        }
        assertThat(accepted).as("the hog is stopped by the budget").isLessThan(1000);
      }
      assertThat(full).hasMessageContaining("memory budget is exhausted");
      assertThat(budget.borrowedBytes()).isPositive().isLessThanOrEqualTo(lendable);
      assertThat(budget.usedBytes()).isGreaterThan(reservation);

      long quietOwn = segmentOf(big(0), options);
      int fitsInReservation = (int) (reservation / quietOwn);
      assertThat(fitsInReservation).isGreaterThan(1);
      List<AppendResult> quietResults = new ArrayList<>();
      for (int i = 0; i < fitsInReservation; i++) {
        quietResults.add(quiet.append(big(i)));
      }
      assertThat(quiet.state().inflightSegments()).isEqualTo(fitsInReservation);
      assertThat(budget.usedBytes()).isLessThanOrEqualTo(budget.capacityBytes());

      store.openUploadGate();
      assertThat(hog.flush().nextLsn()).isEqualTo(accepted);
      assertThat(quiet.flush().nextLsn()).isEqualTo(fitsInReservation);
      assertThat(await(quietResults.get(0).committed()).nextLsn()).isPositive();
      assertThat(budget.usedBytes()).as("committed segments gave their bytes back").isZero();
      assertThat(hog.append(big(accepted)).lsn()).as("the hog writes again").isEqualTo(accepted);
      hog.close();
      quiet.close();
      assertThat(budget.reservedBytes()).as("closed writers return their reservations").isZero();
      assertThat(budget.usedBytes()).isZero();
    } finally {
      store.openUploadGate();
    }
  }

  @Test
  void aWaitingWriterBlocksWhileTheBudgetIsLentOutAndResumesWhenSegmentsCommit() {
    WriterOptions options = onePerSegment(false);
    long reservation = reservation(options);
    long lendable = 2 * segmentOf(big(0), options);
    MemoryBudget budget = MemoryBudget.ofBytes(reservation + lendable);
    GatedStore store = new GatedStore(new MemoryObjectStore());
    ExecutorService caller = Executors.newSingleThreadExecutor();
    int total = (int) ((reservation + lendable) / segmentOf(big(0), options)) + 3;
    try (Objlog log = Objlog.open(store, "tests/budget-wait", logOptions().memoryBudget(budget).build());
        PartitionWriter writer = log.openWriter(1, options)) {
      store.closeUploadGate();
      Thread[] appender = new Thread[1];
      CompletableFuture<Long> appends = CompletableFuture.supplyAsync(() -> {
        appender[0] = Thread.currentThread();
        long last = -1;
        for (int i = 0; i < total; i++) {
          last = writer.append(big(i)).lsn();
        }
        return last;
      }, caller);
      eventually("the appender waits for the budget", () -> appender[0] != null
          && appender[0].getState() == Thread.State.WAITING && budget.usedBytes() > reservation);
      assertThat(appends).isNotDone();
      assertThat(writer.state().nextLsn()).isLessThan(total);
      assertThat(budget.usedBytes()).isLessThanOrEqualTo(budget.capacityBytes());

      store.openUploadGate();
      assertThat(await(appends)).isEqualTo(total - 1);
      assertThat(writer.flush().nextLsn()).isEqualTo(total);
      assertThat(budget.writerWaitTime()).isPositive();
    } finally {
      store.openUploadGate();
      caller.shutdownNow();
    }
  }

  @Test
  void aRecordLargerThanTheWholeBudgetIsRejectedWithWhatToChange() {
    MemoryBudget budget = MemoryBudget.ofBytes(1 << 20);
    try (Objlog log = Objlog.open(new MemoryObjectStore(), "tests/budget-small",
        logOptions().memoryBudget(budget).build());
        PartitionWriter writer = log.openWriter(1, WriterFixtures.manualCuts().build())) {
      assertThatThrownBy(() -> writer.append(LogRecord.of(1, new byte[2 << 20])))
          .isInstanceOf(RecordExceedsPendingBudgetException.class)
          .hasMessageContaining("objlog.memory.budget")
          .hasMessageContaining("split the record");
      assertThat(writer.state().nextLsn()).as("nothing was accepted").isZero();
      writer.append(LogRecord.of(1, "small"));
      assertThat(writer.flush().nextLsn()).isEqualTo(1);
    }
  }

  @Test
  void aWriterOpenedWhenReservationsFillTheBudgetGetsWhatIsLeft() {
    WriterOptions options = onePerSegment(true);
    long reservation = reservation(options);
    MemoryBudget budget = MemoryBudget.ofBytes(reservation + reservation / 2);
    try (Objlog log = Objlog.open(new MemoryObjectStore(), "tests/budget-over",
        logOptions().memoryBudget(budget).build())) {
      PartitionWriter a = log.openWriter(1, options);
      PartitionWriter b = log.openWriter(2, options);
      assertThat(budget.reservedBytes()).isEqualTo(budget.capacityBytes());
      b.append(big(0));
      b.flush();
      a.close();
      b.close();
      assertThat(budget.reservedBytes()).isZero();
    }
  }

  @Test
  void aWriterReservesItsLargestRecordPlusABlockAndRefusesALargerRecord() {
    int maxRecord = 16 << 10;
    WriterOptions options = WriterFixtures.manualCuts()
        .backpressure(new WriterOptions.BackpressurePolicy(4, 256L << 20, true, maxRecord))
        .pipeline(new WriterOptions.Pipeline(BLOCK, WriterOptions.Pipeline.DEFAULT.codec(),
            WriterOptions.Pipeline.DEFAULT.zstdLevel(), WriterOptions.Pipeline.DEFAULT.hashAlgorithm(), null))
        .build();
    long expected = dev.objlog.format.segment.SegmentEncoder.worstCaseSegmentSize(1, maxRecord, BLOCK,
        options.pipeline().codec()) + BLOCK;
    assertThat(reservation(options)).isEqualTo(expected);
    assertThat(reservation(options)).isLessThan(reservation(onePerSegment(true)));
    MemoryBudget budget = MemoryBudget.ofBytes(64L << 20);
    try (Objlog log = Objlog.open(new MemoryObjectStore(), "tests/budget-max-record",
        logOptions().memoryBudget(budget).build())) {
      PartitionWriter w = log.openWriter(0, options);
      assertThat(budget.reservedBytes()).isEqualTo(expected);
      w.append(LogRecord.of(1, new byte[maxRecord - 16]));
      assertThatThrownBy(() -> w.append(LogRecord.of(1, new byte[maxRecord - 15])))
          .isInstanceOf(RecordExceedsPendingBudgetException.class).hasMessageContaining("maxRecordBytes");
      assertThat(w.state().nextLsn()).isEqualTo(1);
    }
  }

  @Test
  void theDefaultPolicyAcceptsTheFormatsLargestRecord() {
    assertThat(WriterOptions.BackpressurePolicy.DEFAULT.maxRecordBytes())
        .isEqualTo(WriterOptions.BackpressurePolicy.FORMAT_MAX_RECORD_BYTES)
        .isEqualTo(16 + (256 << 10) + (4 << 20));
    assertThatThrownBy(() -> WriterOptions.BackpressurePolicy.DEFAULT.withMaxRecordBytes(15))
        .isInstanceOf(dev.objlog.InvalidArgumentException.class);
  }
}
