package dev.objlog.internal.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.ObjlogOptions;
import dev.objlog.read.LogReader;
import dev.objlog.read.ReadRecord;
import dev.objlog.read.ReadResult;
import dev.objlog.read.ReaderOptions;
import dev.objlog.read.Tailer;
import dev.objlog.read.Watch;
import dev.objlog.store.memory.MemoryObjectStore;
import dev.objlog.testing.MutableClock;
import dev.objlog.testing.MutableTicker;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A tailer's {@code next(timeout)} waits for elapsed time on the log's ticker: stepping the wall
 * clock by hours neither ends the wait early nor stretches it. Time is virtual; the head reads of
 * the tailer are where the test moves it, and no assertion depends on how long anything took.
 */
class TailerOnElapsedTimeTests {
  private static final long BOUND_S = 30;
  private static final Duration HOUR = Duration.ofHours(1);

  // Starts just below the overflow, which the timeouts cross: readings compare by subtraction.
  private final MutableTicker ticker = new MutableTicker(Long.MAX_VALUE - Duration.ofMinutes(10).toNanos());
  private final MutableClock clock = new MutableClock();
  private final ObservedStore store = new ObservedStore(new MemoryObjectStore(clock));

  private TestLog open() {
    return TestLog.open(store, ObjlogOptions.builder().clock(clock).ticker(ticker));
  }

  private static ReaderOptions noPolling() {
    return ReaderOptions.builder().pollInterval(Duration.ofDays(1)).build();
  }

  /** A {@code next(timeout)} call running on its own thread. */
  private record Call(Thread thread, CompletableFuture<ReadResult> result) {}

  private static Call nextOnItsOwnThread(Tailer tailer, Duration timeout) {
    CompletableFuture<ReadResult> result = new CompletableFuture<>();
    Thread th = new Thread(() -> {
      try {
        result.complete(tailer.next(timeout));
      } catch (Throwable e) {
        result.completeExceptionally(e);
      }
    }, "tailer-next");
    th.setDaemon(true);
    th.start();
    return new Call(th, result);
  }

  /** Whether the call is parked waiting for a head change (false once it returned). */
  private static boolean awaitParked(Call call) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_S);
    while (!call.result().isDone()) {
      Thread.State state = call.thread().getState();
      if (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING) {
        for (StackTraceElement e : call.thread().getStackTrace()) {
          if (e.getClassName().endsWith("HeadTracker") && e.getMethodName().equals("awaitChange")) {
            return true;
          }
        }
      }
      assertThat(System.nanoTime()).as("the tailer parked or returned within the bound").isLessThan(deadline);
      Thread.sleep(2);
    }
    return false;
  }

  @Test
  void aTailerTimesOutWhenItsTickerPassesTheTimeoutThoughTheWallClockWentBack() throws Exception {
    try (TestLog t = open();
        LogReader reader = t.log.newReader(noPolling());
        Watch watch = reader.watch(3)) {
      t.writer(3).commitSegments(1, 2, 10);
      Tailer tailer = watch.tail(3, 2, 0);
      // The tailer's head read takes an hour and a second of elapsed time; meanwhile the wall
      // clock is stepped back five hours.
      store.beforeRead = () -> {
        clock.advance(Duration.ofHours(-5));
        ticker.advance(HOUR.plusSeconds(1));
      };

      ReadResult result = nextOnItsOwnThread(tailer, HOUR).result().get(BOUND_S, TimeUnit.SECONDS);

      assertThat(result.records()).as("nothing committed after the position").isEmpty();
      assertThat(result.nextLsn()).isEqualTo(2);
      assertThat(tailer.position()).isEqualTo(2);
    }
  }

  @Test
  void aWallClockStepForwardDoesNotEndATailersWait() throws Exception {
    try (TestLog t = open();
        LogReader reader = t.log.newReader(noPolling());
        Watch watch = reader.watch(3)) {
      TestLog.Writer w = t.writer(3);
      w.commitSegments(1, 2, 10);
      Tailer tailer = watch.tail(3, 2, 0);
      // Each head read steps the wall clock two days forward; no elapsed time passes.
      java.time.Instant start = clock.instant();
      store.beforeRead = () -> clock.advance(Duration.ofDays(2));

      Call next = nextOnItsOwnThread(tailer, HOUR);
      boolean parked = awaitParked(next);
      w.commitSegments(1, 3, 20);
      w.announce();

      ReadResult woke = next.result().get(BOUND_S, TimeUnit.SECONDS);
      assertThat(parked).as("the tailer still waits after its head read stepped the wall clock two days").isTrue();
      assertThat(clock.instant()).as("the head was read").isAfter(start);
      assertThat(woke.records()).as("the wait lasted until the commit").extracting(ReadRecord::lsn)
          .containsExactly(2L, 3L, 4L);
    }
  }
}
