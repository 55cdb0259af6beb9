package dev.objlog.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shared load driver: what it holds back and where it starts the clock. Nothing here bounds a
 * duration from above; the one lower bound (a stall shows in the latencies) holds however slow the
 * machine is.
 */
class SendDriverTests {
  private static final byte[][] VALUES = {new byte[8]};

  @Test
  @Timeout(120) // a window smaller than asked would leave the acknowledger waiting: fail, do not hang
  void aWindowNeverLetsMoreSendsOutstandingThanItsSize() throws Exception {
    int window = 3;
    int n = 200;
    LinkedBlockingQueue<CompletableFuture<Object>> pending = new LinkedBlockingQueue<>();
    AtomicInteger outstanding = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    SendDriver.Sender sender = (i, v) -> {
      most.accumulateAndGet(outstanding.incrementAndGet(), Math::max);
      CompletableFuture<Object> f = new CompletableFuture<>();
      pending.add(f);
      return f;
    };
    // acknowledges one send only once the window is full (or the tail is all that is left): without
    // the window the sender would run past it before the first acknowledgement
    Thread acker = new Thread(() -> {
      try {
        for (int done = 0; done < n; done++) {
          while (outstanding.get() < Math.min(window, n - done)) {
            Thread.onSpinWait();
          }
          CompletableFuture<Object> f = pending.take();
          outstanding.decrementAndGet();
          f.complete(null);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    acker.setDaemon(true);
    acker.start();
    SendDriver.Run run = SendDriver.outstanding(sender, VALUES, n, window);
    acker.join();
    assertEquals(window, most.get());
    assertEquals(n, run.sortedMs().length);
  }

  @Test
  void aFixedRateCountsAStalledSendAgainstTheRecordsScheduledBehindIt() throws Exception {
    long[] stallNs = new long[1];
    SendDriver.Sender sender = (i, v) -> {
      if (i == 0) {
        long t = System.nanoTime();
        try {
          Thread.sleep(50);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        stallNs[0] = System.nanoTime() - t;
      }
      return CompletableFuture.completedFuture(null); // acknowledged the moment send returns
    };
    int perSecond = 1000;
    SendDriver.Run run = SendDriver.fixedRate(sender, VALUES, 5, perSecond);
    // record 0's own latency holds the stall either way; record 1 was due 1 ms after it but could only
    // be sent once record 0's send returned: measured from its send call it would be ~0 ms, from its
    // scheduled time it is at least the stall less the gap. So the two largest latencies hold it.
    double lowerBound = stallNs[0] / 1e6 - 1000.0 / perSecond;
    double[] ms = run.sortedMs();
    assertTrue(ms[ms.length - 2] >= lowerBound, "latencies " + Arrays.toString(ms) + ", stall " + stallNs[0] / 1e6);
    assertTrue(run.maxLateMs() >= lowerBound, "late by " + run.maxLateMs());
  }
}
