package dev.objlog.internal.writer;

import static dev.objlog.internal.writer.WriterFixtures.PARTITION;
import static dev.objlog.internal.writer.WriterFixtures.await;
import static dev.objlog.internal.writer.WriterFixtures.awaitFailure;
import static dev.objlog.internal.writer.WriterFixtures.manualCuts;
import static dev.objlog.internal.writer.WriterFixtures.open;
import static dev.objlog.internal.writer.WriterFixtures.readCommitted;
import static dev.objlog.internal.writer.WriterFixtures.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.AppendResult;
import dev.objlog.Header;
import dev.objlog.LogRecord;
import dev.objlog.LsnSpaceExhaustedException;
import dev.objlog.Objlog;
import dev.objlog.PartitionHead;
import dev.objlog.PartitionWriter;
import dev.objlog.RecordExceedsPendingBudgetException;
import dev.objlog.TimestampOrderException;
import dev.objlog.WriterClosedException;
import dev.objlog.WriterOptions;
import dev.objlog.WriterState;
import dev.objlog.internal.writer.WriterFixtures.Committed;
import dev.objlog.internal.writer.WriterFixtures.StoreKind;
import dev.objlog.store.ObjectStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class WriterAppendTests {
  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void appendsGetDenseLsnsAndTheirFuturesCompleteWhenCommitted(StoreKind kind) {
    ObjectStore store = kind.open(dir);
    try (Objlog log = open(store); PartitionWriter writer = log.openWriter(PARTITION, manualCuts().build())) {
      List<AppendResult> results = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        results.add(writer.append(LogRecord.of(1000 + i, List.of(Header.of("k", "v" + i)),
            ("value-" + i).getBytes(StandardCharsets.UTF_8))));
      }
      assertThat(results).extracting(AppendResult::lsn).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
      assertThat(results.get(9).committed()).as("nothing commits before a cut").isNotDone();
      writer.cut();
      PartitionHead head = await(results.get(9).committed());
      assertThat(head.nextLsn()).isEqualTo(10);
      for (AppendResult r : results) {
        assertThat(await(r.committed()).nextLsn()).isGreaterThan(r.lsn());
      }

      Committed committed = readCommitted(store, PARTITION);
      assertThat(committed.lsns()).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
      assertThat(committed.values()).first().isEqualTo("value-0");
      assertThat(committed.records().get(3).timestampMs()).isEqualTo(1003);
      assertThat(new String(committed.records().get(3).headers().get(0).value(), StandardCharsets.UTF_8))
          .isEqualTo("v3");
      assertThat(committed.segments()).hasSize(1);
      assertThat(committed.head().writerEpoch()).isEqualTo(1);
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aBatchIsCutAtMaxRecords(StoreKind kind) {
    ObjectStore store = kind.open(dir);
    try (Objlog log = open(store);
        PartitionWriter writer = log.openWriter(PARTITION, manualCuts().batch(Duration.ZERO, 1L << 20, 4).build())) {
      AppendResult last = null;
      for (int i = 0; i < 12; i++) {
        last = writer.append(record(i, "r" + i));
      }
      assertThat(await(last.committed()).nextLsn()).isEqualTo(12);
      assertThat(readCommitted(store, PARTITION).segments())
          .extracting(e -> e.recordCount()).containsExactly(4L, 4L, 4L);
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aBatchIsCutBeforeItWouldPassMaxBytes(StoreKind kind) {
    ObjectStore store = kind.open(dir);
    // Each record encodes to 16 + 100 bytes; 300 raw bytes hold two of them.
    try (Objlog log = open(store);
        PartitionWriter writer = log.openWriter(PARTITION, manualCuts().batch(Duration.ZERO, 300, 1000).build())) {
      for (int i = 0; i < 6; i++) {
        writer.append(LogRecord.of(i, new byte[100]));
      }
      writer.flush();
      assertThat(readCommitted(store, PARTITION).segments())
          .extracting(e -> e.recordCount()).containsExactly(2L, 2L, 2L);
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void explicitCutsMakeOneSegmentEach(StoreKind kind) {
    ObjectStore store = kind.open(dir);
    try (Objlog log = open(store); PartitionWriter writer = log.openWriter(PARTITION, manualCuts().build())) {
      writer.append(record(1, "a"));
      writer.cut();
      writer.cut();
      writer.append(record(2, "b"));
      writer.append(record(3, "c"));
      writer.cut();
      writer.flush();
      Committed committed = readCommitted(store, PARTITION);
      assertThat(committed.segments()).extracting(e -> e.recordCount()).containsExactly(1L, 2L);
      assertThat(committed.values()).containsExactly("a", "b", "c");
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void maxDelayCutsABatchWithoutFurtherCalls(StoreKind kind) {
    ObjectStore store = kind.open(dir);
    WriterOptions options = WriterOptions.builder().batch(Duration.ofMillis(5), 1L << 20, 1000).build();
    try (Objlog log = open(store); PartitionWriter writer = log.openWriter(PARTITION, options)) {
      AppendResult r = writer.append(record(1, "aged"));
      assertThat(await(r.committed()).nextLsn()).isEqualTo(1);
      assertThat(readCommitted(store, PARTITION).values()).containsExactly("aged");
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void flushReturnsTheCommittedHeadAndCloseFlushes(StoreKind kind) {
    ObjectStore store = kind.open(dir);
    try (Objlog log = open(store)) {
      PartitionWriter writer = log.openWriter(PARTITION, manualCuts().build());
      PartitionHead empty = writer.flush();
      assertThat(empty.nextLsn()).as("nothing appended: the takeover head").isZero();
      writer.append(record(1, "one"));
      writer.append(record(2, "two"));
      PartitionHead head = writer.flush();
      assertThat(head.nextLsn()).isEqualTo(2);
      assertThat(writer.state().committed()).isEqualTo(head);
      assertThat(log.head(PARTITION)).hasValue(head);
      writer.append(record(3, "three"));
      writer.close();
      assertThat(log.head(PARTITION).orElseThrow().nextLsn()).as("close flushed").isEqualTo(3);
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void closeIsIdempotentAndLaterCallsFailWithWriterClosed(StoreKind kind) {
    try (Objlog log = open(kind.open(dir))) {
      PartitionWriter writer = log.openWriter(PARTITION, manualCuts().build());
      writer.append(record(1, "x"));
      CompletableFuture<PartitionHead> next = writer.nextCommit();
      writer.close();
      writer.close();
      assertThat(await(next).nextLsn()).isEqualTo(1);
      assertThatThrownBy(() -> writer.append(record(2, "y"))).isInstanceOf(WriterClosedException.class);
      assertThatThrownBy(writer::cut).isInstanceOf(WriterClosedException.class);
      assertThatThrownBy(writer::flush).isInstanceOf(WriterClosedException.class);
      assertThat(awaitFailure(writer.nextCommit())).isInstanceOf(WriterClosedException.class);
      WriterState state = writer.state();
      assertThat(state.closed()).isTrue();
      assertThat(state.failure()).isNull();
      assertThat(writer.failure()).isEmpty();
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aTimestampBelowThePreviousIsRejectedAndTheWriterStaysUsable(StoreKind kind) {
    ObjectStore store = kind.open(dir);
    try (Objlog log = open(store)) {
      try (PartitionWriter writer = log.openWriter(PARTITION, manualCuts().build())) {
        writer.append(record(100, "a"));
        assertThatThrownBy(() -> writer.append(record(99, "late"))).isInstanceOf(TimestampOrderException.class);
        AppendResult next = writer.append(record(100, "b"));
        assertThat(next.lsn()).as("the rejected record took no LSN").isEqualTo(1);
      }
      try (PartitionWriter again = log.openWriter(PARTITION, manualCuts().build())) {
        assertThatThrownBy(() -> again.append(record(50, "older than the committed head")))
            .isInstanceOf(TimestampOrderException.class);
        assertThat(again.append(record(100, "c")).lsn()).isEqualTo(2);
      }
      assertThat(readCommitted(store, PARTITION).values()).containsExactly("a", "b", "c");
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aRecordTooLargeForThePendingBudgetIsRejectedBeforeAcceptance(StoreKind kind) {
    WriterOptions options = manualCuts().backpressure(4, 64 * 1024).build();
    try (Objlog log = open(kind.open(dir)); PartitionWriter writer = log.openWriter(PARTITION, options)) {
      assertThatThrownBy(() -> writer.append(LogRecord.of(1, new byte[100 * 1024])))
          .isInstanceOf(RecordExceedsPendingBudgetException.class)
          .hasMessageContaining("pending budget");
      assertThat(writer.append(LogRecord.of(1, new byte[1024])).lsn()).isZero();
      assertThat(writer.flush().nextLsn()).isEqualTo(1);
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void theLastLsnIsAssignedOnceAndThenTheSpaceIsExhausted(StoreKind kind) {
    ObjectStore store = kind.open(dir);
    try (Objlog log = open(store)) {
      log.initializePartition(PARTITION, -4L);
      try (PartitionWriter writer = log.openWriter(PARTITION, manualCuts().build())) {
        assertThat(writer.append(record(1, "a")).lsn()).isEqualTo(-4L);
        assertThat(writer.append(record(1, "b")).lsn()).as("2^64-3, the last committable LSN").isEqualTo(-3L);
        assertThatThrownBy(() -> writer.append(record(1, "c"))).isInstanceOf(LsnSpaceExhaustedException.class);
        assertThat(writer.flush().nextLsn()).isEqualTo(-2L);
        assertThatThrownBy(() -> writer.append(record(1, "d"))).isInstanceOf(LsnSpaceExhaustedException.class);
      }
      assertThat(readCommitted(store, PARTITION).values()).containsExactly("a", "b");
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void nextCommitWakesAWaiterOnTheNextCommit(StoreKind kind) {
    try (Objlog log = open(kind.open(dir)); PartitionWriter writer = log.openWriter(PARTITION, manualCuts().build())) {
      CompletableFuture<PartitionHead> next = writer.nextCommit();
      assertThat(writer.state().committed().nextLsn()).isZero();
      writer.append(record(1, "a"));
      assertThat(next).isNotDone();
      writer.cut();
      assertThat(await(next).nextLsn()).isEqualTo(1);
      CompletableFuture<PartitionHead> later = writer.nextCommit();
      assertThat(later).as("a fresh future waits for the following commit").isNotDone();
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void stateReportsBufferedAndCommittedRecords(StoreKind kind) {
    try (Objlog log = open(kind.open(dir)); PartitionWriter writer = log.openWriter(PARTITION, manualCuts().build())) {
      writer.append(record(1, "a"));
      writer.append(record(1, "b"));
      WriterState state = writer.state();
      assertThat(state.nextLsn()).isEqualTo(2);
      assertThat(state.bufferedRecords()).isEqualTo(2);
      assertThat(state.committed().nextLsn()).isZero();
      assertThat(state.inflightBytes()).isPositive();
      writer.flush();
      state = writer.state();
      assertThat(state.bufferedRecords()).isZero();
      assertThat(state.inflightSegments()).isZero();
      assertThat(state.inflightBytes()).isZero();
      assertThat(state.committed().nextLsn()).isEqualTo(2);
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void manyThreadsAppendingGetEveryRecordCommittedExactlyOnce(StoreKind kind) throws Exception {
    ObjectStore store = kind.open(dir);
    WriterOptions options = WriterOptions.builder().batch(Duration.ofMillis(2), 4096, 50).backpressure(3, 1 << 20).build();
    try (Objlog log = open(store); PartitionWriter writer = log.openWriter(PARTITION, options)) {
      List<CompletableFuture<List<AppendResult>>> threads = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int id = t;
        threads.add(CompletableFuture.supplyAsync(() -> {
          List<AppendResult> out = new ArrayList<>();
          for (int i = 0; i < 250; i++) {
            out.add(writer.append(record(0, id + "-" + i)));
          }
          return out;
        }, java.util.concurrent.Executors.newSingleThreadExecutor()));
      }
      List<Long> lsns = new ArrayList<>();
      for (CompletableFuture<List<AppendResult>> t : threads) {
        for (AppendResult r : await(t)) {
          lsns.add(r.lsn());
          await(r.committed());
        }
      }
      assertThat(lsns).doesNotHaveDuplicates().hasSize(1000);
      Committed committed = readCommitted(store, PARTITION);
      assertThat(committed.records()).hasSize(1000);
      assertThat(committed.values()).doesNotHaveDuplicates();
    }
  }
}
