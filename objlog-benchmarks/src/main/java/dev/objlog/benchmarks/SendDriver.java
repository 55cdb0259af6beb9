package dev.objlog.benchmarks;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The one load driver of the side-by-side producer comparisons (P8, issue 23): the same loop
 * drives objlog and Kafka, each side being only a {@link Sender}. Two shapes of load:
 *
 * <ul>
 *   <li>{@link #fixedRate}: an open system. Record i is due at {@code t0 + i / rate}; it is sent at
 *       or after that time and its latency is its acknowledgement minus its <em>due</em> time, not
 *       minus the moment {@code send} was called, so a sender that stalls (a full buffer, a blocking
 *       {@code send}) cannot hide the wait of the records queued behind it (coordinated omission).
 *   <li>{@link #outstanding}: a closed system. At most {@code window} sends are unacknowledged at
 *       any time (a semaphore taken before each send, given back by its acknowledgement), the same
 *       window for every side; latency is from the send call (the window, not a schedule, is what
 *       holds a record back), throughput is records over first send to last acknowledgement. A
 *       window of {@link Integer#MAX_VALUE} is "flat out": as fast as {@code send} returns.
 * </ul>
 *
 * Percentiles are exact (sorted arrays, {@link Data#percentile}): a run holds at most some
 * hundred thousand latencies, so a histogram would only cost precision.
 *
 * <p>Thread-safety: stateless; each call drives its sender from the calling thread, and the
 * acknowledgement callbacks write only their own record's slot.
 */
final class SendDriver {
  /** Below this the driver spins rather than parks: a park may oversleep by tens of µs. */
  private static final long SPIN_NS = 100_000;

  private SendDriver() {}

  /** One side of a comparison: sends record {@code i} with value {@code v}, returning its acknowledgement. */
  interface Sender {
    CompletableFuture<?> send(int i, byte[] v);
  }

  /**
   * What one drive measured.
   *
   * @param sortedMs each record's latency in ms, ascending
   * @param seconds first send (or first due time) to the last acknowledgement
   * @param maxLateMs how far behind its schedule the sender ever started a send (0 for a closed loop)
   */
  record Run(double[] sortedMs, double seconds, double maxLateMs) {
    double p(double percentile) {
      return Data.percentile(sortedMs, percentile);
    }

    double recordsPerSecond() {
      return sortedMs.length / seconds;
    }

    /** The latencies of several runs of one side, pooled. */
    static double[] pooled(Iterable<Run> runs) {
      double[] all = new double[0];
      for (Run r : runs) {
        int at = all.length;
        all = Arrays.copyOf(all, at + r.sortedMs.length);
        System.arraycopy(r.sortedMs, 0, all, at, r.sortedMs.length);
      }
      Arrays.sort(all);
      return all;
    }
  }

  /** Sends {@code n} records at {@code perSecond}; latency from each record's scheduled send time. */
  static Run fixedRate(Sender sender, byte[][] values, int n, int perSecond) throws Exception {
    return drive(sender, values, n, 1_000_000_000L / perSecond, Integer.MAX_VALUE);
  }

  /** Sends {@code n} records keeping at most {@code window} unacknowledged; latency from the send call. */
  static Run outstanding(Sender sender, byte[][] values, int n, int window) throws Exception {
    return drive(sender, values, n, 0, window);
  }

  private static Run drive(Sender sender, byte[][] values, int n, long gapNs, int window) throws Exception {
    long[] start = new long[n];
    long[] acked = new long[n];
    CompletableFuture<?>[] futures = new CompletableFuture<?>[n];
    Semaphore permits = new Semaphore(Math.min(window, n));
    long maxLate = 0;
    long t0 = System.nanoTime() + (gapNs > 0 ? 1_000_000 : 0);
    for (int i = 0; i < n; i++) {
      if (gapNs > 0) {
        long due = t0 + i * gapNs;
        waitUntil(due);
        start[i] = due;
        maxLate = Math.max(maxLate, System.nanoTime() - due);
      }
      permits.acquire();
      if (gapNs == 0) {
        start[i] = System.nanoTime();
      }
      int k = i;
      futures[i] = sender.send(i, values[i % values.length]).whenComplete((x, e) -> {
        acked[k] = System.nanoTime();
        permits.release();
      });
    }
    CompletableFuture.allOf(futures).get(5, TimeUnit.MINUTES);
    double[] ms = new double[n];
    long end = 0;
    for (int i = 0; i < n; i++) {
      ms[i] = (acked[i] - start[i]) / 1e6;
      end = Math.max(end, acked[i]);
    }
    Arrays.sort(ms);
    return new Run(ms, (end - (gapNs > 0 ? t0 : start[0])) / 1e9, maxLate / 1e6);
  }

  /** Parks until shortly before {@code due}, then spins: a spinning sender would take a core from the sides. */
  static void waitUntil(long due) {
    for (long left; (left = due - System.nanoTime()) > 0; ) {
      if (left > SPIN_NS) {
        LockSupport.parkNanos(left - SPIN_NS);
      } else {
        Thread.onSpinWait();
      }
    }
  }
}
