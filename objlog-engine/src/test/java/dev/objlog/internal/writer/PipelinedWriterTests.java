package dev.objlog.internal.writer;

import static dev.objlog.internal.writer.BackpressureAndAbortTests.eventually;
import static dev.objlog.internal.writer.WriterFixtures.PARTITION;
import static dev.objlog.internal.writer.WriterFixtures.awaitFailure;
import static dev.objlog.internal.writer.WriterFixtures.manualCuts;
import static dev.objlog.internal.writer.WriterFixtures.open;
import static dev.objlog.internal.writer.WriterFixtures.readCommitted;
import static dev.objlog.internal.writer.WriterFixtures.segmentKey;
import static dev.objlog.internal.writer.WriterFixtures.segmentObjects;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.AppendResult;
import dev.objlog.InvalidArgumentException;
import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.WriterAbortedException;
import dev.objlog.WriterOptions;
import dev.objlog.format.HashAlgorithm;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.segment.Codec;
import dev.objlog.format.segment.RangeReader;
import dev.objlog.format.segment.SegmentEncoder;
import dev.objlog.format.segment.SegmentEncoderOptions;
import dev.objlog.format.segment.SegmentReader;
import dev.objlog.format.segment.SegmentRecord;
import dev.objlog.format.segment.SegmentTrailer;
import dev.objlog.internal.memory.MemoryPool;
import dev.objlog.internal.writer.WriterFixtures.Committed;
import dev.objlog.internal.writer.WriterFixtures.StoreKind;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.fault.FaultInjectingObjectStore;
import dev.objlog.store.fault.FaultInjectingObjectStore.Fault;
import dev.objlog.store.fault.FaultInjectingObjectStore.FaultRule;
import dev.objlog.store.fault.FaultInjectingObjectStore.Operation;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The pipelined writer: blocks sealed in parallel while the batch is built, streamed in order into
 * an upload that starts before the cut, restarted whole from retained blocks after a transient
 * upload failure, and the pipeline's memory within the pending budget.
 */
class PipelinedWriterTests {
  @TempDir Path dir;

  private static WriterOptions.Builder smallBlocks(Codec codec, int parallelism) {
    return manualCuts().pipeline(new WriterOptions.Pipeline(256, codec, 1, HashAlgorithm.XXH64, null, parallelism));
  }

  private static String value(int i) {
    return "record-" + i + "-" + "x".repeat(i % 97);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void theUploadStartsWithTheFirstSealedBlockBeforeTheCut(StoreKind kind) {
    GatedStore store = new GatedStore(kind.open(dir));
    try (Objlog log = open(store)) {
      WriterEngine writer = (WriterEngine) log.openWriter(PARTITION, smallBlocks(Codec.ZSTD, 2).build());
      List<String> values = new ArrayList<>();
      for (int i = 0; i < 60; i++) {
        values.add(value(i));
        writer.append(LogRecord.of(1, value(i)));
      }
      eventually("the segment's upload is streaming", () -> store.uploadsStarted.get() == 1
          && store.bytesStreamed.get() > 1024);
      assertThat(writer.state().bufferedRecords()).as("nothing was cut").isEqualTo(60);
      assertThat(writer.state().inflightSegments()).isZero();
      assertThat(segmentObjects(store, PARTITION)).as("not visible before complete").isEmpty();

      assertThat(writer.flush().nextLsn()).isEqualTo(60);
      assertThat(store.uploadsStarted.get()).as("one upload per segment").isEqualTo(1);
      assertThat(store.uploadsAborted.get()).isZero();
      Committed committed = readCommitted(store, PARTITION);
      assertThat(committed.values()).containsExactlyElementsOf(values);
      assertThat(committed.segments()).hasSize(1);
      assertThat(committed.segments().get(0).blockCount()).isGreaterThan(5);
      assertThat(writer.retainedBytes()).as("blocks released once uploaded").isZero();
      writer.close();
    }
  }

  /**
   * Many segments of random records through four concurrent seals: every segment is exactly what
   * the sequential encoder makes of its records (codec none: the Go-stable bytes; zstd: same
   * zstd-jni, same level), so parallel sealing changed no byte.
   */
  @ParameterizedTest
  @EnumSource(Codec.class)
  void parallelSealingWritesTheSegmentsTheSequentialEncoderWrites(Codec codec) {
    ExecutorService sealers = Executors.newFixedThreadPool(4);
    ObjectStore store = StoreKind.MEMORY.open(dir);
    SplittableRandom random = new SplittableRandom(codec.ordinal() + 5);
    try (Objlog log = open(store)) {
      WriterEngine writer = (WriterEngine) log.openWriter(PARTITION, manualCuts()
          .batch(Duration.ZERO, 64L << 20, 700)
          .pipeline(new WriterOptions.Pipeline(2048, codec, 3, HashAlgorithm.CRC32C, sealers, 4))
          .build());
      List<String> values = new ArrayList<>();
      for (int i = 0; i < 3000; i++) {
        String v = value(i) + "y".repeat(random.nextInt(0, 3000));
        values.add(v);
        writer.append(LogRecord.of(1_000 + i / 10, v));
        if (random.nextInt(400) == 0) {
          writer.cut();
        }
      }
      writer.flush();
      Committed committed = readCommitted(store, PARTITION);
      assertThat(committed.values()).containsExactlyElementsOf(values);
      assertThat(committed.segments()).hasSizeGreaterThanOrEqualTo(5);
      int at = 0;
      for (LeafEntry entry : committed.segments()) {
        byte[] stored = store.get(segmentKey(PARTITION, entry)).bytes();
        SegmentTrailer t = SegmentReader.open(RangeReader.ofBytes(stored), stored.length).trailer();
        SegmentEncoderOptions options = new SegmentEncoderOptions(t.partition(), codec, HashAlgorithm.CRC32C, 3,
            2048, t.createdUnixMs(), t.segmentUuid(), t.writerTag());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (SegmentEncoder encoder = new SegmentEncoder(options, out::write)) {
          for (int n = 0; n < t.recordCount(); n++, at++) {
            SegmentRecord r = committed.records().get(at);
            encoder.append(r);
          }
          encoder.finish();
        }
        assertThat(stored).as("segment at LSN " + t.baseLsn()).isEqualTo(out.toByteArray());
      }
      assertThat(writer.retainedBytes()).isZero();
      writer.close();
    } finally {
      sealers.shutdownNow();
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aTornStreamingUploadRestartsTheWholeSegmentFromTheRetainedBlocks(StoreKind kind) {
    FaultInjectingObjectStore store = FaultInjectingObjectStore.builder(kind.open(dir)).seed(3)
        .tornUploadMaxBytes(3000).build();
    store.addRule(FaultRule.next(Operation.UPLOAD, Fault.TORN_UPLOAD, 1));
    try (Objlog log = open(store)) {
      WriterEngine writer = (WriterEngine) log.openWriter(PARTITION, smallBlocks(Codec.ZSTD, 2).build());
      List<String> values = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        values.add(value(i));
        writer.append(LogRecord.of(1, value(i)));
      }
      assertThat(writer.flush().nextLsn()).isEqualTo(200);
      assertThat(store.injectedFaults()).extracting(FaultInjectingObjectStore.InjectedFault::fault)
          .containsExactly(Fault.TORN_UPLOAD);
      assertThat(store.requestCount(Operation.UPLOAD)).as("the segment was uploaded again, whole").isEqualTo(2);
      Committed committed = readCommitted(store, PARTITION);
      assertThat(committed.values()).containsExactlyElementsOf(values);
      assertThat(segmentObjects(store, PARTITION)).hasSize(1);
      assertThat(writer.retainedBytes()).isZero();
      writer.close();
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void blocksBeingSealedAndRetainedStayWithinThePendingBudget(StoreKind kind) {
    GatedStore store = new GatedStore(kind.open(dir));
    try (Objlog log = open(store)) {
      WriterEngine writer = (WriterEngine) log.openWriter(PARTITION, smallBlocks(Codec.NONE, 1)
          .batch(Duration.ZERO, 64L << 20, 100)
          .backpressure(new WriterOptions.BackpressurePolicy(3, 200_000, false))
          .build());
      store.closeUploadGate();
      SplittableRandom random = new SplittableRandom(9);
      List<String> values = new ArrayList<>();
      for (int i = 0; i < 250; i++) {
        String v = value(i) + "z".repeat(random.nextInt(0, 400));
        values.add(v);
        writer.append(LogRecord.of(1, v));
        assertThat(writer.retainedBytes()).as("after record " + i)
            .isLessThanOrEqualTo(writer.state().inflightBytes());
      }
      eventually("two cut segments wait for completion", () -> store.uploadsWaiting.get() == 2);
      assertThat(writer.state().inflightSegments()).isEqualTo(2);
      long retained = writer.retainedBytes();
      assertThat(retained).as("sealed blocks of the gated segments and the batch").isPositive()
          .isLessThanOrEqualTo(writer.state().inflightBytes());
      store.openUploadGate();
      writer.flush();
      assertThat(readCommitted(store, PARTITION).values()).containsExactlyElementsOf(values);
      assertThat(writer.retainedBytes()).isZero();
      writer.close();
    } finally {
      store.openUploadGate();
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void abortAbortsTheStreamingUploadOfTheBatchBeingBuilt(StoreKind kind) {
    GatedStore store = new GatedStore(kind.open(dir));
    try (Objlog log = open(store)) {
      WriterEngine writer = (WriterEngine) log.openWriter(PARTITION, smallBlocks(Codec.ZSTD, 2).build());
      AppendResult first = writer.append(LogRecord.of(1, value(0)));
      for (int i = 1; i < 40; i++) {
        writer.append(LogRecord.of(1, value(i)));
      }
      eventually("the batch is streaming", () -> store.uploadsStarted.get() == 1 && store.bytesStreamed.get() > 0);
      writer.abort();
      assertThat(awaitFailure(first.committed())).isInstanceOf(WriterAbortedException.class);
      eventually("the upload was aborted", () -> store.uploadsAborted.get() == 1);
      assertThat(segmentObjects(store, PARTITION)).isEmpty();
      eventually("nothing retained", () -> writer.retainedBytes() == 0);
      writer.close();
    }
  }

  /**
   * flush returns only once the futures of every record accepted before it are complete (they are
   * copies of one per-segment future and fire in reverse order of creation, so flush must not wait
   * on a copy of its own).
   */
  @Test
  void flushReturnsOnlyAfterTheFuturesOfEarlierAppendsCompleted() {
    try (Objlog log = open(StoreKind.MEMORY.open(dir))) {
      WriterEngine writer = (WriterEngine) log.openWriter(PARTITION, manualCuts().build());
      for (int i = 0; i < 300; i++) {
        AppendResult a = writer.append(LogRecord.of(1, value(i)));
        AppendResult b = writer.append(LogRecord.of(1, value(i)));
        writer.flush();
        assertThat(a.committed()).as("round " + i).isDone();
        assertThat(b.committed()).as("round " + i).isDone();
      }
      writer.close();
    }
  }

  @Test
  void sealParallelismIsValidatedAndDefaultsToAtMostTwo() {
    assertThat(WriterOptions.Pipeline.DEFAULT.sealParallelism()).isZero();
    assertThat(new WriterOptions.Pipeline(1024, Codec.ZSTD, 3, HashAlgorithm.XXH64, null).sealParallelism()).isZero();
    assertThat(SealPool.resolveParallelism(0))
        .isEqualTo(Math.min(2, Runtime.getRuntime().availableProcessors()));
    assertThat(SealPool.resolveParallelism(5)).isEqualTo(5);
    assertThat(WriterOptions.Pipeline.DEFAULT.withSealParallelism(3).sealParallelism()).isEqualTo(3);
    assertThatThrownBy(() -> WriterOptions.Pipeline.DEFAULT.withSealParallelism(-1))
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("sealParallelism");
    assertThatThrownBy(() -> WriterOptions.Pipeline.DEFAULT.withSealParallelism(257))
        .isInstanceOf(InvalidArgumentException.class);
  }

  @Test
  void theSealPoolRunsAtMostItsParallelismAtOnceAndEveryJob() throws Exception {
    ExecutorService executor = Executors.newFixedThreadPool(6);
    try {
      SealPool pool = new SealPool(executor, 2, Codec.ZSTD, 1, HashAlgorithm.XXH64, 64 << 10,
          new SealResources(new MemoryPool(1 << 20)), e -> { });
      java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger();
      java.util.concurrent.atomic.AtomicInteger max = new java.util.concurrent.atomic.AtomicInteger();
      java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(200);
      for (int i = 0; i < 200; i++) {
        pool.submit(() -> {
          int now = running.incrementAndGet();
          max.accumulateAndGet(now, Math::max);
          Thread.yield();
          running.decrementAndGet();
          done.countDown();
        });
      }
      assertThat(done.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      assertThat(max.get()).isBetween(1, 2);
    } finally {
      executor.shutdownNow();
    }
  }
}
