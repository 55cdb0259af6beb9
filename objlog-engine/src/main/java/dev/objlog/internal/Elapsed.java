package dev.objlog.internal;

import java.time.Duration;

/**
 * Arithmetic on {@link dev.objlog.store.Ticker} readings. Readings have an arbitrary origin and
 * may overflow, so elapsed time is always the difference of two readings, and limits given as a
 * {@link Duration} saturate instead of overflowing.
 *
 * <p>Thread-safety: stateless.
 */
public final class Elapsed {
  private Elapsed() {}

  /** {@code d} in nanoseconds, {@code Long.MAX_VALUE} if it does not fit, 0 if negative. */
  public static long nanos(Duration d) {
    if (d.isNegative()) {
      return 0;
    }
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  /** Whether more than {@code limit} passed from reading {@code since} to reading {@code now}. */
  public static boolean exceeded(long since, long now, Duration limit) {
    return now - since > nanos(limit);
  }
}
