package dev.objlog.internal.writer;

import dev.objlog.WriterOptions;

/**
 * The batch age limit of one writer: {@link WriterOptions.BatchPolicy#maxDelay()} as given, or,
 * with {@link WriterOptions.AdaptiveDelay} enabled, the rule written there: {@code max(min,
 * min(multiplier × persist average, max, fill time))}, where the persist average is a moving
 * average of each committed segment's cut → commit time (seal, upload, waiting for earlier
 * segments, head swap: what an appender waits for after the cut), and the fill time is how long a
 * whole batch takes at the append rate seen so far. Until the first commit the persist average is
 * unknown and {@code maxDelay} stands in for {@code multiplier × average}.
 *
 * <p>The append rate costs nothing per append: each cut contributes one sample, the batch's records
 * and raw bytes over the time since the previous cut (or since its first record, for the first
 * batch). Every record accepted between two cuts is in the second one's batch, so the samples
 * cover the writer's whole life, idle time included; the rate is the ratio of the averages (records
 * per elapsed time), not an average of ratios, so a batch cut at once by a flush weighs no more
 * than its share of time.
 *
 * <p>Thread-safety: not thread-safe; guarded by the writer lock (the batcher's).
 */
final class FlushDelay {
  /** Weight of the newest sample in each moving average. */
  static final double WEIGHT = 0.2;

  private final WriterOptions.BatchPolicy batch;
  private final WriterOptions.AdaptiveDelay adaptive;

  private double persistNanos = -1;
  /** Averages over cuts of a batch's records, raw bytes and the interval they arrived in; -1: none yet. */
  private double cutRecords = -1;
  private double cutBytes = -1;
  private double cutIntervalNanos = -1;
  private boolean cutBefore;
  private long lastCutNanos;

  FlushDelay(WriterOptions.BatchPolicy batch, WriterOptions.AdaptiveDelay adaptive) {
    this.batch = batch;
    this.adaptive = adaptive;
  }

  /**
   * A batch of {@code records} and {@code rawBytes}, whose first record came at {@code firstNanos},
   * was cut at {@code nowNanos}.
   */
  void onCut(long records, long rawBytes, long firstNanos, long nowNanos) {
    long since = cutBefore ? lastCutNanos : firstNanos;
    cutBefore = true;
    lastCutNanos = nowNanos;
    long interval = nowNanos - since;
    if (interval <= 0) {
      // No elapsed time to divide by (a coarse or virtual ticker): no rate sample.
      return;
    }
    cutRecords = average(cutRecords, records);
    cutBytes = average(cutBytes, rawBytes);
    cutIntervalNanos = average(cutIntervalNanos, interval);
  }

  /** A segment committed {@code persistNanos} after its cut. */
  void onCommit(long persistNanos) {
    this.persistNanos = average(this.persistNanos, Math.max(0, persistNanos));
  }

  private static double average(double current, double sample) {
    return current < 0 ? sample : WEIGHT * sample + (1 - WEIGHT) * current;
  }

  /** The age limit for a batch started now, in nanoseconds; zero means none (fixed delay only). */
  long delayNanos() {
    if (!adaptive.enabled()) {
      return batch.maxDelay().toNanos();
    }
    double wanted = persistNanos < 0 ? batch.maxDelay().toNanos() : adaptive.multiplier() * persistNanos;
    double upper = Math.min(adaptive.max().toNanos(), fillNanos());
    long nanos = (long) Math.max(adaptive.min().toNanos(), Math.min(wanted, upper));
    // An adaptive age limit never switches the age limit off (zero would mean "none").
    return Math.max(1, nanos);
  }

  /** How long a whole batch takes to fill at the append rate seen so far; infinite before any rate. */
  double fillNanos() {
    if (cutIntervalNanos <= 0) {
      return Double.POSITIVE_INFINITY;
    }
    double byRecords = batch.maxRecords() * cutIntervalNanos / cutRecords;
    double byBytes = cutBytes > 0 ? batch.maxBytes() * cutIntervalNanos / cutBytes : Double.POSITIVE_INFINITY;
    return Math.min(byRecords, byBytes);
  }

  /** The persist average in nanoseconds; negative before the first commit. */
  double persistAverageNanos() {
    return persistNanos;
  }
}
