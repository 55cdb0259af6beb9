package dev.objlog.internal.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.ObjlogOptions;
import dev.objlog.internal.metrics.MetricNames;
import dev.objlog.read.LogReader;
import dev.objlog.read.PartitionNotWatchedException;
import dev.objlog.read.ReadRecord;
import dev.objlog.read.ReadResult;
import dev.objlog.read.ReaderOptions;
import dev.objlog.read.Tailer;
import dev.objlog.read.Watch;
import dev.objlog.read.WatchClosedException;
import dev.objlog.store.memory.MemoryObjectStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Watches and tailers (PROTOCOLS.md §5.6). Blocking is proven by state, never by elapsed time:
 * a tailer "blocks" when its thread is parked inside {@code next()}, and every wait is bounded.
 */
class TailTests {
  private static final Duration HOUR = Duration.ofHours(1);
  private static final long BOUND_S = 30;

  @TempDir Path dir;

  private static ReaderOptions polling(Duration interval) {
    return ReaderOptions.builder().pollInterval(interval).build();
  }

  /** Runs {@code tailer.next()} on its own thread and returns once that thread is parked in it. */
  private static CompletableFuture<ReadResult> blockedNext(Tailer tailer) throws InterruptedException {
    NextOnItsOwnThread next = NextOnItsOwnThread.start(tailer);
    awaitParkedInAwait(next.thread(), next.result());
    return next.result();
  }

  private static void awaitParkedInAwait(Thread th, CompletableFuture<?> result) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_S);
    while (!result.isDone()) {
      if (th.getState() == Thread.State.WAITING || th.getState() == Thread.State.TIMED_WAITING) {
        for (StackTraceElement e : th.getStackTrace()) {
          if (e.getClassName().endsWith("HeadTracker") && e.getMethodName().equals("awaitChange")) {
            return;
          }
        }
      }
      assertThat(System.nanoTime()).as("tailer parked within the bound").isLessThan(deadline);
      Thread.sleep(2);
    }
  }

  @ParameterizedTest
  @EnumSource(TestLog.StoreKind.class)
  void nextReturnsAtOnceWhenRecordsExist(TestLog.StoreKind kind) throws Exception {
    try (TestLog t = TestLog.open(kind.open(dir));
        LogReader reader = t.log.newReader(polling(HOUR));
        Watch watch = reader.watch(3)) {
      t.writer(3).commitSegments(2, 3, 10);
      Tailer tailer = watch.tail(3, 1, 4);
      assertThat(tailer.next().records()).extracting(ReadRecord::lsn).containsExactly(1L, 2L, 3L, 4L);
      assertThat(tailer.next().records()).extracting(ReadRecord::lsn).containsExactly(5L);
      assertThat(tailer.position()).isEqualTo(6);
      ReadResult none = tailer.next(Duration.ZERO);
      assertThat(none.records()).isEmpty();
      assertThat(none.nextLsn()).isEqualTo(6);
    }
  }

  @Test
  void aLocalCommitWakesABlockedTailerWithoutWaitingForThePoll() throws Exception {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    try (TestLog t = TestLog.open(new MemoryObjectStore(), ObjlogOptions.builder().meterRegistry(meters));
        LogReader reader = t.log.newReader(polling(HOUR));
        Watch watch = reader.watch(3)) {
      TestLog.Writer w = t.writer(3);
      w.commitSegments(1, 2, 10);
      Tailer tailer = watch.tail(3, 2, 0);

      CompletableFuture<ReadResult> next = blockedNext(tailer);
      w.commitSegments(1, 3, 20);
      w.announce();

      ReadResult woke = next.get(BOUND_S, TimeUnit.SECONDS);
      assertThat(woke.records()).extracting(ReadRecord::lsn).containsExactly(2L, 3L, 4L);
      Counter local = meters.find(MetricNames.READER_TAIL_WAKEUPS).tag(MetricNames.TAG_OUTCOME, "local").counter();
      assertThat(local).isNotNull();
      assertThat(local.count()).isEqualTo(1);
    }
  }

  @ParameterizedTest
  @EnumSource(TestLog.StoreKind.class)
  void thePollerWakesABlockedTailerWhenAnotherProcessCommits(TestLog.StoreKind kind) throws Exception {
    try (TestLog t = TestLog.open(kind.open(dir));
        LogReader reader = t.log.newReader(polling(Duration.ofMillis(20)));
        Watch watch = reader.watch(3)) {
      TestLog.Writer w = t.writer(3);
      Tailer tailer = watch.tail(3, 0, 0);
      CompletableFuture<ReadResult> next = blockedNext(tailer);
      w.commitSegments(1, 2, 10); // no announcement: only polling can see it
      assertThat(next.get(BOUND_S, TimeUnit.SECONDS).records()).extracting(ReadRecord::lsn).containsExactly(0L, 1L);
    }
  }

  @Test
  void closingTheWatchWakesABlockedTailer() throws Exception {
    try (TestLog t = TestLog.open(new MemoryObjectStore());
        LogReader reader = t.log.newReader(polling(HOUR))) {
      Watch watch = reader.watch(3);
      Tailer tailer = watch.tail(3, 0, 0);
      CompletableFuture<ReadResult> next = blockedNext(tailer);
      watch.close();
      assertThatThrownBy(() -> next.get(BOUND_S, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class).cause().isInstanceOf(WatchClosedException.class);
      assertThatThrownBy(() -> watch.tail(3, 0, 0)).isInstanceOf(WatchClosedException.class);
      watch.close();
    }
  }

  @Test
  void closingTheTailerOrTheReaderWakesABlockedNext() throws Exception {
    try (TestLog t = TestLog.open(new MemoryObjectStore())) {
      LogReader reader = t.log.newReader(polling(HOUR));
      Watch watch = reader.watch(3, 4);
      Tailer first = watch.tail(3, 0, 0);
      CompletableFuture<ReadResult> firstNext = blockedNext(first);
      first.close();
      assertThatThrownBy(() -> firstNext.get(BOUND_S, TimeUnit.SECONDS)).cause().isInstanceOf(WatchClosedException.class);

      Tailer second = watch.tail(4, 0, 0);
      CompletableFuture<ReadResult> secondNext = blockedNext(second);
      reader.close();
      assertThatThrownBy(() -> secondNext.get(BOUND_S, TimeUnit.SECONDS)).cause().isInstanceOf(WatchClosedException.class);
    }
  }

  @Test
  void removingThePartitionWakesItsTailerAndLaterTailsAreRefused() throws Exception {
    try (TestLog t = TestLog.open(new MemoryObjectStore());
        LogReader reader = t.log.newReader(polling(HOUR));
        Watch watch = reader.watch(3)) {
      Tailer tailer = watch.tail(3, 0, 0);
      CompletableFuture<ReadResult> next = blockedNext(tailer);
      watch.removePartition(3);
      assertThatThrownBy(() -> next.get(BOUND_S, TimeUnit.SECONDS)).cause()
          .isInstanceOf(PartitionNotWatchedException.class);
      assertThatThrownBy(() -> watch.tail(3, 0, 0)).isInstanceOf(PartitionNotWatchedException.class);
      assertThatThrownBy(() -> watch.tail(9, 0, 0)).isInstanceOf(PartitionNotWatchedException.class);
      watch.addPartition(3);
      assertThat(watch.partitions()).containsExactly(3);
      t.writer(3).commitSegments(1, 1, 10);
      assertThat(watch.tail(3, 0, 0).next().records()).hasSize(1);
    }
  }

  @Test
  void anInterruptEndsABlockedNextAndLeavesThePosition() throws Exception {
    try (TestLog t = TestLog.open(new MemoryObjectStore());
        LogReader reader = t.log.newReader(polling(HOUR));
        Watch watch = reader.watch(3)) {
      Tailer tailer = watch.tail(3, 0, 0);
      CompletableFuture<ReadResult> next = new CompletableFuture<>();
      Thread th = new Thread(() -> {
        try {
          next.complete(tailer.next());
        } catch (Throwable e) {
          next.completeExceptionally(e);
        }
      });
      th.setDaemon(true);
      th.start();
      awaitParkedInAwait(th, next);
      th.interrupt();
      assertThatThrownBy(() -> next.get(BOUND_S, TimeUnit.SECONDS)).cause().isInstanceOf(InterruptedException.class);
      assertThat(tailer.position()).isZero();
    }
  }

  @Test
  void aBoundedNextReturnsEmptyWhenNothingArrives() throws Exception {
    try (TestLog t = TestLog.open(new MemoryObjectStore());
        LogReader reader = t.log.newReader(polling(HOUR));
        Watch watch = reader.watch(3)) {
      t.writer(3).commitSegments(1, 2, 10);
      Tailer tailer = watch.tail(3, 2, 0);
      ReadResult r = tailer.next(Duration.ofMillis(30));
      assertThat(r.records()).isEmpty();
      assertThat(r.nextLsn()).isEqualTo(2);
      assertThat(r.head().nextLsn()).isEqualTo(2);
    }
  }

  @Test
  void severalWatchesOfOnePartitionAreCountedSoClosingOneKeepsTheOtherPolling() throws Exception {
    try (TestLog t = TestLog.open(new MemoryObjectStore());
        LogReader reader = t.log.newReader(polling(Duration.ofMillis(20)))) {
      Watch a = reader.watch(3);
      Watch b = reader.watch(3);
      a.close();
      Tailer tailer = b.tail(3, 0, 0);
      CompletableFuture<ReadResult> next = blockedNext(tailer);
      t.writer(3).commitSegments(1, 1, 10);
      assertThat(next.get(BOUND_S, TimeUnit.SECONDS).records()).hasSize(1);
      b.close();
    }
  }
}
