package dev.objlog.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionHead;
import dev.objlog.PartitionWriter;
import dev.objlog.WriterOptions;
import dev.objlog.store.memory.MemoryObjectStore;
import dev.objlog.testing.MutableClock;
import dev.objlog.testing.SteppedScheduler;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Bug found by the deterministic simulation: {@code flushAsync()} blocked its caller while the
 * pending budget ({@code maxPendingSegments}) was full, until background work committed a segment,
 * even with {@code failWhenFull}. On the log's own scheduler threads (a commit callback that
 * flushes) that could take every thread and deadlock; in the simulation, where background work runs
 * only when the caller steps it, it hung at once. Now the cut is remembered and the future follows
 * the batch being built.
 */
class FlushAsyncBlockedWhenPendingFullRegressionTests {

  @Test
  @Timeout(60) // a hang guard only: before the fix, flushAsync never returned here
  void flushAsyncReturnsAtOnceWhenThePendingBudgetIsFullAndCompletesOnceRoomFrees() {
    MutableClock clock = new MutableClock();
    SteppedScheduler scheduler = new SteppedScheduler(clock, new SplittableRandom(9));
    MemoryObjectStore bucket = new MemoryObjectStore(clock);
    try (Objlog log = Objlog.open(bucket, "regression/flush", ObjlogOptions.builder().clock(clock)
        .sleeper(clock::advance).scheduler(scheduler).build())) {
      PartitionWriter writer = log.openWriter(0, WriterOptions.builder()
          .batch(Duration.ZERO, 1 << 20, 1_000)
          .backpressure(new WriterOptions.BackpressurePolicy(1, 1L << 30, true))
          .build());
      writer.append(LogRecord.of(1, "a"));
      CompletableFuture<PartitionHead> first = writer.flushAsync(); // one segment pending: the budget
      var last = writer.append(LogRecord.of(2, "b"));

      // Nothing ran in the background yet, so no room: the call must still return.
      CompletableFuture<PartitionHead> second = writer.flushAsync();
      assertThat(second).isNotDone();

      scheduler.runUntilDone(second, 10_000);
      assertThat(first).isCompletedWithValueMatching(h -> h.nextLsn() >= 1);
      assertThat(second).isCompletedWithValueMatching(h -> h.nextLsn() == 2);
      assertThat(last.committed()).isDone();
      writer.abort();
    }
  }
}
