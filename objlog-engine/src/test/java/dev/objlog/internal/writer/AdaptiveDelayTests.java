package dev.objlog.internal.writer;

import static dev.objlog.internal.writer.WriterFixtures.PARTITION;
import static dev.objlog.internal.writer.WriterFixtures.STREAM;
import static dev.objlog.internal.writer.WriterFixtures.keys;
import static dev.objlog.internal.writer.WriterFixtures.logOptions;
import static dev.objlog.internal.writer.WriterFixtures.readCommitted;
import static dev.objlog.internal.writer.WriterFixtures.record;
import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.Objlog;
import dev.objlog.PartitionHead;
import dev.objlog.WriterOptions;
import dev.objlog.store.memory.MemoryObjectStore;
import dev.objlog.testing.MutableClock;
import dev.objlog.testing.MutableTicker;
import dev.objlog.testing.SteppedScheduler;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The adaptive batch delay ({@link WriterOptions.AdaptiveDelay}, {@link FlushDelay}) on virtual
 * time: the log's ticker moves only where the test says (inside the store's upload and head swap,
 * so a segment's persist time from cut to commit is exactly what the script adds), and background
 * work runs only when the test steps the scheduler, so no batch timer fires by itself.
 */
class AdaptiveDelayTests {
  private static final Duration COLD = Duration.ofMillis(40);

  private final MutableTicker ticker = new MutableTicker(Long.MAX_VALUE - Duration.ofSeconds(1).toNanos());
  private final MutableClock clock = new MutableClock();
  private final SteppedScheduler scheduler = new SteppedScheduler(clock, new SplittableRandom(23));
  private final ScriptedFailureStore store =
      new ScriptedFailureStore(new MemoryObjectStore(clock), keys(PARTITION).head());
  /** Virtual time an upload and a head swap take; set by each test before it commits. */
  private volatile Duration upload = Duration.ZERO;
  private volatile Duration swap = Duration.ZERO;

  private Objlog open() {
    store.onUploadStart(call -> ticker.advance(upload));
    store.onHeadSwap(call -> ticker.advance(swap));
    return Objlog.open(store, STREAM, logOptions().clock(clock).ticker(ticker).sleeper(clock::advance)
        .scheduler(scheduler).build());
  }

  private static WriterOptions adaptive(int maxRecords, long maxBytes, Duration min, double multiplier) {
    return WriterOptions.builder().batch(COLD, maxBytes, maxRecords)
        .adaptiveDelay(new WriterOptions.AdaptiveDelay(true, min, Duration.ofSeconds(10), multiplier))
        .build();
  }

  /** Cuts what is being built and runs background work until it is committed. */
  private PartitionHead commit(WriterEngine writer) {
    CompletableFuture<PartitionHead> flushed = writer.flushAsync();
    scheduler.runUntilDone(flushed, 10_000);
    return flushed.join();
  }

  private void persistTakes(Duration uploadTime, Duration swapTime) {
    upload = uploadTime;
    swap = swapTime;
  }

  private static void assertDelay(WriterEngine writer, Duration expected, String why) {
    // The averages are doubles: allow a nanosecond of rounding.
    assertThat(writer.batchDelay()).as(why).isBetween(expected.minusNanos(1), expected.plusNanos(1));
  }

  @Test
  void theDelayIsTheColdValueUntilTheFirstCommitThenMultiplierTimesThePersistTime() {
    try (Objlog log = open()) {
      WriterEngine writer = (WriterEngine) log.openWriter(PARTITION,
          adaptive(1000, 64L << 20, Duration.ofMillis(1), 2.0));
      assertThat(writer.batchDelay()).as("before any record: the batch policy's maxDelay").isEqualTo(COLD);

      persistTakes(Duration.ofMillis(70), Duration.ofMillis(30));
      writer.append(record(1, "a"));
      writer.cut();
      assertThat(writer.batchDelay()).as("cut, not committed yet: still the cold value").isEqualTo(COLD);

      commit(writer);
      assertDelay(writer, Duration.ofMillis(200),
          "2 × the first persist time (70 ms upload + 30 ms head swap)");
      writer.close();
    }
    assertThat(readCommitted(store, PARTITION).values()).containsExactly("a");
  }

  @Test
  void theDelayMovesTowardsEachNewPersistTimeAsAMovingAverage() {
    try (Objlog log = open()) {
      WriterEngine writer = (WriterEngine) log.openWriter(PARTITION,
          adaptive(1000, 64L << 20, Duration.ofMillis(1), 1.0));
      persistTakes(Duration.ofMillis(80), Duration.ofMillis(20));
      writer.append(record(1, "a"));
      commit(writer);
      assertDelay(writer, Duration.ofMillis(100), "the first persist time");

      // The store slows down: every later segment persists in 600 ms.
      persistTakes(Duration.ofMillis(500), Duration.ofMillis(100));
      writer.append(record(2, "b"));
      commit(writer);
      assertDelay(writer, Duration.ofMillis(200), "0.2 × 600 + 0.8 × 100 ms");
      writer.append(record(3, "c"));
      commit(writer);
      assertDelay(writer, Duration.ofMillis(280), "0.2 × 600 + 0.8 × 200 ms");

      // And speeds up again: the average follows down.
      persistTakes(Duration.ofMillis(10), Duration.ofMillis(10));
      writer.append(record(4, "d"));
      commit(writer);
      assertDelay(writer, Duration.ofMillis(228), "0.2 × 20 + 0.8 × 280 ms");
      writer.close();
    }
    assertThat(readCommitted(store, PARTITION).values()).containsExactly("a", "b", "c", "d");
  }

  @Test
  void theDelayCountsTheWholePersistTimeFromCutToCommitNotOnlyTheHeadSwap() {
    try (Objlog log = open()) {
      WriterEngine writer = (WriterEngine) log.openWriter(PARTITION,
          adaptive(1000, 64L << 20, Duration.ofMillis(1), 1.0));
      persistTakes(Duration.ofMillis(300), Duration.ofMillis(5));
      writer.append(record(1, "a"));
      commit(writer);
      assertDelay(writer, Duration.ofMillis(305), "upload and head swap, not the 5 ms head swap alone");
      writer.close();
    }
  }

  @Test
  void theDelayIsCappedByTheTimeABatchTakesToFillAtTheAppendRate() {
    try (Objlog log = open()) {
      WriterEngine writer = (WriterEngine) log.openWriter(PARTITION,
          adaptive(10, 64L << 20, Duration.ofMillis(1), 1.0));
      persistTakes(Duration.ofSeconds(1), Duration.ZERO);
      // 5 records in 100 ms: a batch of 10 fills in 200 ms.
      for (int i = 0; i < 5; i++) {
        writer.append(record(i, "r" + i));
        ticker.advance(Duration.ofMillis(20));
      }
      commit(writer);
      assertDelay(writer, Duration.ofMillis(200),
          "the fill time of a whole batch, below 1 × the 1 s persist time");
      writer.close();
    }
  }

  @Test
  void theFillTimeCountsRawBytesWhenTheyFillABatchFirst() {
    try (Objlog log = open()) {
      WriterEngine writer = (WriterEngine) log.openWriter(PARTITION,
          adaptive(1000, 1000, Duration.ofMillis(1), 1.0));
      persistTakes(Duration.ofSeconds(1), Duration.ZERO);
      writer.append(record(1, "x".repeat(100)));
      ticker.advance(Duration.ofMillis(50));
      commit(writer);
      long size = dev.objlog.LogRecord.of(1, "x".repeat(100)).encodedSize();
      // size raw bytes in 50 ms: 1000 bytes fill in 50 ms × 1000 / size.
      assertDelay(writer, Duration.ofNanos(Duration.ofMillis(50).toNanos() * 1000 / size),
          "the time 1000 raw bytes take at the rate seen");
      writer.close();
    }
  }

  @Test
  void theLowerBoundWinsOverTheFillTime() {
    try (Objlog log = open()) {
      WriterEngine writer = (WriterEngine) log.openWriter(PARTITION,
          adaptive(10, 64L << 20, Duration.ofMillis(30), 1.0));
      persistTakes(Duration.ofSeconds(1), Duration.ZERO);
      // 5 records in 10 ms: a batch fills in 20 ms, under the 30 ms lower bound.
      writer.append(record(1, "a"));
      writer.append(record(2, "b"));
      writer.append(record(3, "c"));
      writer.append(record(4, "d"));
      writer.append(record(5, "e"));
      ticker.advance(Duration.ofMillis(10));
      commit(writer);
      assertDelay(writer, Duration.ofMillis(30), "the lower bound");
      writer.close();
    }
  }

  @Test
  void aFullBatchIsCutAtOnceWithoutWaitingForItsAgeLimit() {
    try (Objlog log = open()) {
      WriterEngine writer = (WriterEngine) log.openWriter(PARTITION,
          adaptive(3, 64L << 20, Duration.ofMillis(1), 4.0));
      writer.append(record(1, "a"));
      writer.append(record(2, "b"));
      assertThat(writer.state().bufferedRecords()).isEqualTo(2);
      writer.append(record(3, "c"));
      assertThat(writer.state().bufferedRecords()).as("cut by its record limit, no timer run").isZero();
      assertThat(writer.state().inflightSegments()).isEqualTo(1);
      commit(writer);
      writer.close();
    }
    assertThat(readCommitted(store, PARTITION).values()).containsExactly("a", "b", "c");
  }

  @Test
  void withoutAdaptiveDelayTheConfiguredDelayAppliesWhateverThePersistTime() {
    try (Objlog log = open()) {
      WriterEngine writer = (WriterEngine) log.openWriter(PARTITION,
          WriterOptions.builder().batch(Duration.ofMillis(7), 1L << 20, 10).build());
      assertThat(writer.batchDelay()).isEqualTo(Duration.ofMillis(7));
      persistTakes(Duration.ofSeconds(2), Duration.ofSeconds(1));
      writer.append(record(1, "a"));
      commit(writer);
      assertThat(writer.batchDelay()).isEqualTo(Duration.ofMillis(7));
      writer.close();
    }
  }
}
