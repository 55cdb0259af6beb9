package dev.objlog.store;

/**
 * A monotonic source of elapsed time in nanoseconds, for measuring "how long since": deadlines,
 * timeouts, intervals and ages. Unlike a {@link java.time.Clock}, it does not follow the wall
 * clock, so a wall-clock jump (NTP step, manual change, VM resume) neither ends a deadline early
 * nor stretches it. Wall time stays with the {@code Clock} where it is meant: timestamps written
 * into records and bucket documents (lease expiries, delete-after times) that other processes read.
 *
 * <p>Only differences between two readings of the same ticker mean anything; a reading has an
 * arbitrary origin and may be negative. Compare readings by subtraction ({@code b - a > 0}), never
 * with {@code <}, so that readings across the numeric overflow still order correctly (readings
 * less than about 292 years apart).
 *
 * <p>Tests and the deterministic simulation inject a virtual ticker, together with a virtual
 * {@link Sleeper} and scheduler, to run on virtual time.
 *
 * <p>Thread-safety: implementations must be safe for concurrent use and must never go backwards.
 */
@FunctionalInterface
public interface Ticker {
  /** {@link System#nanoTime()}: the JVM's monotonic time. */
  Ticker SYSTEM = System::nanoTime;

  /** Nanoseconds elapsed since an arbitrary, fixed origin. */
  long read();
}
