package dev.objlog.testing;

import dev.objlog.store.Ticker;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Virtual elapsed time for tests: a {@link Ticker} that moves only when told, and only forward.
 * Pair it with a {@link MutableClock} to move elapsed time and wall time independently: a sleeper
 * that advances both models time passing, advancing the clock alone models a wall-clock jump.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class MutableTicker implements Ticker {
  private final AtomicLong nanos;

  /**
   * @param start the first reading; any value, since only differences mean anything (a start
   *     close to {@code Long.MAX_VALUE} checks that code compares readings overflow-safely)
   */
  public MutableTicker(long start) {
    this.nanos = new AtomicLong(start);
  }

  public MutableTicker() {
    this(0);
  }

  /** Moves the ticker forward by {@code d}; a negative duration is refused (tickers never go back). */
  public void advance(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("a ticker never goes backwards: " + d);
    }
    nanos.addAndGet(d.toNanos());
  }

  @Override
  public long read() {
    return nanos.get();
  }
}
