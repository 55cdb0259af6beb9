package dev.objlog.internal.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.MemoryBudget;
import dev.objlog.MemoryPart;
import dev.objlog.ObjlogOptions;
import dev.objlog.internal.metrics.MetricNames;
import dev.objlog.read.LogReader;
import dev.objlog.read.ReadRecord;
import dev.objlog.read.ReadResult;
import dev.objlog.read.ReaderOptions;
import dev.objlog.read.Watch;
import dev.objlog.read.WatchClosedException;
import dev.objlog.store.memory.MemoryObjectStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A tailer behind the head reads the backlog ahead as a replay does, and a caught-up tailer reads
 * as before. Concurrency is forced with the store's ranged-GET gate (segment opens of the
 * read-ahead run on the log's executor and wait there); nothing depends on elapsed time, and
 * every wait for a state is bounded.
 */
class TailerReadAheadTests {
  private static final Duration HOUR = Duration.ofHours(1);
  private static final long BOUND_S = 30;

  private static ReaderOptions options(int readAhead) {
    return ReaderOptions.builder().pollInterval(HOUR).readAheadBlocks(readAhead).build();
  }

  private static List<Long> lsns(long from, long to) {
    return LongStream.range(from, to).boxed().toList();
  }

  private static void awaitState(BooleanSupplier state, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_S);
    while (!state.getAsBoolean()) {
      assertThat(System.nanoTime()).as(what + " within the bound").isLessThan(deadline);
      Thread.sleep(2);
    }
  }

  /** Whether {@code th} is parked waiting for a block of the read-ahead. */
  private static boolean waitingForTheReadAhead(Thread th) {
    if (th.getState() != Thread.State.WAITING) {
      return false;
    }
    for (StackTraceElement e : th.getStackTrace()) {
      if (e.getClassName().endsWith(".Replay") && e.getMethodName().equals("await")) {
        return true;
      }
    }
    return false;
  }

  /** Reads batches until the position reaches {@code end}, checking each is contiguous. */
  private static List<ReadRecord> drain(DefaultTailer tailer, long end, int limit) throws InterruptedException {
    List<ReadRecord> out = new ArrayList<>();
    while (tailer.position() < end) {
      long at = tailer.position();
      ReadResult r = tailer.next();
      assertThat(r.records()).hasSizeLessThanOrEqualTo(limit);
      assertThat(r.records()).extracting(ReadRecord::lsn)
          .containsExactlyElementsOf(lsns(at, at + r.records().size()));
      assertThat(r.nextLsn()).isEqualTo(at + r.records().size()).isEqualTo(tailer.position());
      assertThat(r.head().nextLsn()).isGreaterThanOrEqualTo(r.nextLsn());
      out.addAll(r.records());
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 3, 64})
  void aTailerBehindTheHeadReturnsTheBacklogInLsnOrderWhateverTheReadAhead(int depth) throws Exception {
    try (TestLog t = TestLog.open(new MemoryObjectStore());
        LogReader reader = t.log.newReader(options(depth));
        Watch watch = reader.watch(2)) {
      TestLog.Writer w = t.writer(2);
      for (int i = 0; i < 6; i++) {
        w.commitSegments(1, 9, 100 + 9L * i);
      }
      DefaultTailer tailer = (DefaultTailer) watch.tail(2, 3, 4);
      List<ReadRecord> first = drain(tailer, 20, 4);
      assertThat(tailer.readingAhead()).as("reading ahead behind the head").isEqualTo(depth > 0);

      w.commitSegments(2, 9, 200); // the head moves on while the read-ahead runs
      w.announce();
      List<ReadRecord> rest = drain(tailer, 72, 4);

      List<ReadRecord> all = new ArrayList<>(first);
      all.addAll(rest);
      assertThat(all).extracting(ReadRecord::lsn).containsExactlyElementsOf(lsns(3, 72));
      assertThat(all).allSatisfy(r -> assertThat(r.valueAsString()).isEqualTo(TestLog.value(2, r.lsn())));
      assertThat(tailer.next(Duration.ZERO).records()).as("caught up: nothing more").isEmpty();
      assertThat(tailer.readingAhead()).as("at the head there is nothing to read ahead").isFalse();
    }
  }

  @Test
  void atMostTheLogsPermitsOfTailersReadAheadAtOnceAndAClosedOneGivesItsPermitBack() throws Exception {
    int permits = dev.objlog.internal.LogThread.SCHEDULER_THREADS;
    int partitions = permits + 1;
    int[] all = java.util.stream.IntStream.range(0, partitions).toArray();
    try (TestLog t = TestLog.open(new MemoryObjectStore());
        LogReader reader = t.log.newReader(options(8));
        Watch watch = reader.watch(all)) {
      List<DefaultTailer> tailers = new ArrayList<>();
      for (int p : all) {
        TestLog.Writer w = t.writer(p);
        for (int i = 0; i < 4; i++) {
          w.commitSegments(1, 9, 100 + 9L * i);
        }
        tailers.add((DefaultTailer) watch.tail(p, 0, 4));
      }
      for (DefaultTailer tailer : tailers) {
        assertThat(tailer.next().records()).hasSize(4);
      }
      assertThat(tailers.stream().filter(DefaultTailer::readingAhead).count())
          .as("tailers reading ahead, bounded by the log's permits").isEqualTo(permits);
      DefaultTailer without = tailers.get(partitions - 1);
      assertThat(without.readingAhead()).as("the last one found no permit").isFalse();

      tailers.get(0).close();
      assertThat(without.next().records()).as("it reads as usual").hasSize(4);
      assertThat(without.readingAhead()).as("a closed tailer's permit went to it").isTrue();
      List<ReadRecord> rest = drain(without, 36, 4);
      assertThat(rest).extracting(ReadRecord::lsn).containsExactlyElementsOf(lsns(8, 36));
    }
  }

  @Test
  void aTailerThatKeepsUpReadsWithoutReadAhead() throws Exception {
    try (TestLog t = TestLog.open(new MemoryObjectStore());
        LogReader reader = t.log.newReader(options(8));
        Watch watch = reader.watch(2)) {
      TestLog.Writer w = t.writer(2);
      DefaultTailer tailer = (DefaultTailer) watch.tail(2, 0, 4);
      for (int i = 0; i < 5; i++) {
        w.commitSegments(1, 5, 100 + 5L * i); // a batch and one record: less than a batch behind
        w.announce();
        drain(tailer, 5L * (i + 1), 4);
        assertThat(tailer.readingAhead()).isFalse();
      }
    }
  }

  @Test
  void aTailerConsumedOnOneOfTheLogsOwnThreadsDoesNotReadAhead() throws Exception {
    try (TestLog t = TestLog.open(new MemoryObjectStore());
        LogReader reader = t.log.newReader(options(8));
        Watch watch = reader.watch(2)) {
      t.writer(2).commitSegments(6, 9, 100);
      DefaultTailer tailer = (DefaultTailer) watch.tail(2, 0, 4);
      CompletableFuture<List<Long>> read = new CompletableFuture<>();
      Thread th = new dev.objlog.internal.LogThread(() -> {
        try {
          List<Long> got = new ArrayList<>();
          while (tailer.position() < 54) {
            tailer.next().records().forEach(r -> got.add(r.lsn()));
            if (tailer.readingAhead()) {
              throw new AssertionError("read ahead on a thread of the log's pool");
            }
          }
          read.complete(got);
        } catch (Throwable e) {
          read.completeExceptionally(e);
        }
      }, "objlog-test-pool-thread");
      th.start();
      assertThat(read.get(BOUND_S, TimeUnit.SECONDS)).containsExactlyElementsOf(lsns(0, 54));
    }
  }

  /**
   * A log on a budget of its own: the opened segments must stay cached whatever other tests in
   * this JVM hold of the process's budget, so that only the read-ahead's opens reach the gate.
   */
  private static ObjlogOptions.Builder ownBudget() {
    return ObjlogOptions.builder().memoryBudget(MemoryBudget.ofBytes(64L << 20));
  }

  /** Twelve one-block segments; the first batch (LSN 0, 1) is read on the caller's thread. */
  private static DefaultTailer behindWithGatedOpens(TestLog t, Watch watch, ObservedStore store, CountDownLatch gate)
      throws InterruptedException {
    t.writer(2).commitSegments(12, 3, 100);
    DefaultTailer tailer = (DefaultTailer) watch.tail(2, 0, 2);
    assertThat(tailer.next().records()).extracting(ReadRecord::lsn).containsExactly(0L, 1L);
    assertThat(tailer.readingAhead()).isTrue();
    store.rangeGate.set(gate); // segment 1 is open and cached: only the read-ahead's opens reach the store
    return tailer;
  }

  /**
   * Runs {@code tailer.next()} on its own thread ({@code holder[0]}) and returns once that thread
   * waits for a block of the read-ahead whose segment open is held at the store's gate.
   */
  private static CompletableFuture<ReadResult> nextWaitingAtTheGate(DefaultTailer tailer, ObservedStore store,
      Thread[] holder) throws InterruptedException {
    NextOnItsOwnThread next = NextOnItsOwnThread.start(tailer);
    CompletableFuture<ReadResult> result = next.result();
    Thread th = next.thread();
    holder[0] = th;
    // LSN 2 is in segment 1; LSN 3 waits for segment 2, whose open (on the executor) waits at the gate.
    awaitState(() -> result.isDone() || (store.atRangeGate.get() >= 1 && waitingForTheReadAhead(th)),
        "a segment open of the read-ahead held while next() waits for it");
    assertThat(result).as("next() waits for the held open").isNotDone();
    return result;
  }

  @Test
  void theReadAheadOpensLaterSegmentsOnTheExecutorAndKeepsTheirOrder() throws Exception {
    ObservedStore store = new ObservedStore(new MemoryObjectStore());
    try (TestLog t = TestLog.open(store, ownBudget());
        LogReader reader = t.log.newReader(options(8));
        Watch watch = reader.watch(2)) {
      CountDownLatch gate = new CountDownLatch(1);
      DefaultTailer tailer = behindWithGatedOpens(t, watch, store, gate);
      Thread[] th = new Thread[1];
      CompletableFuture<ReadResult> next = nextWaitingAtTheGate(tailer, store, th);
      gate.countDown();
      assertThat(next.get(BOUND_S, TimeUnit.SECONDS).records()).extracting(ReadRecord::lsn).containsExactly(2L, 3L);
      List<ReadRecord> rest = drain(tailer, 36, 2);
      assertThat(rest).extracting(ReadRecord::lsn).containsExactlyElementsOf(lsns(4, 36));
    }
  }

  /**
   * Runs once on both threads of {@code pool} at the same time: when it returns, every task queued
   * before it has run (or, cancelled, been skipped).
   */
  private static void drainBothThreads(ScheduledThreadPoolExecutor pool) throws Exception {
    CountDownLatch both = new CountDownLatch(2);
    Runnable barrier = () -> {
      both.countDown();
      try {
        both.await(BOUND_S, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
    CompletableFuture<?> a = CompletableFuture.runAsync(barrier, pool);
    CompletableFuture<?> b = CompletableFuture.runAsync(barrier, pool);
    CompletableFuture.allOf(a, b).get(BOUND_S, TimeUnit.SECONDS);
  }

  @Test
  void closingTheTailerWhileTheReadAheadIsInFlightCancelsItAndLeavesNothingBehind() throws Exception {
    ObservedStore store = new ObservedStore(new MemoryObjectStore());
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    // Two threads: at most the read-ahead's first two segment opens run (held at the gate); the
    // other opens and blocks wait in the queue when the tailer closes.
    ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(2);
    try (TestLog t = TestLog.open(store, ownBudget().meterRegistry(meters).scheduler(pool))) {
      DefaultLogReader reader = (DefaultLogReader) t.log.newReader(options(8));
      Watch watch = reader.watch(2);
      CountDownLatch gate = new CountDownLatch(1);
      DefaultTailer tailer = behindWithGatedOpens(t, watch, store, gate);
      Thread[] th = new Thread[1];
      CompletableFuture<ReadResult> next = nextWaitingAtTheGate(tailer, store, th);
      double decodedBeforeStop = meters.get(MetricNames.READER_BLOCK_READS).counter().count();

      tailer.close();
      assertThatThrownBy(() -> next.get(BOUND_S, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class).cause().isInstanceOf(WatchClosedException.class);
      th[0].join(TimeUnit.SECONDS.toMillis(BOUND_S));
      assertThat(th[0].isAlive()).as("the caller's thread returned").isFalse();
      assertThat(tailer.readingAhead()).isFalse();
      assertThat(tailer.position()).as("the position stays after the last batch returned").isEqualTo(2);

      gate.countDown(); // the two running opens finish now, after the stop
      drainBothThreads(pool);
      assertThat(store.rangeInFlight.get()).isZero();
      // Eight opens were planned ahead; only the two the pool's threads had begun may reach the store.
      assertThat(store.atRangeGate.get()).as("no open queued before the stop ran after it").isBetween(1, 2);
      assertThat(meters.get(MetricNames.READER_BLOCK_READS).counter().count())
          .as("no block of the cancelled read-ahead is decoded").isEqualTo(decodedBeforeStop);
      assertThat(reader.segments().cachedBlocks()).as("only the first read's block is cached").isEqualTo(1);

      watch.close();
      reader.close();
      assertThat(t.runtime.memory().zstdContexts()).as("no native decode context left").isZero();
      assertThat(t.runtime.memory().held(MemoryPart.BLOCKS)).isZero();
    } finally {
      pool.shutdownNow();
    }
  }
}
