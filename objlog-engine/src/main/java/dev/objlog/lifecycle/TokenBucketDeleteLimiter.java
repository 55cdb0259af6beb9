package dev.objlog.lifecycle;

import dev.objlog.InvalidArgumentException;
import dev.objlog.store.RequestRateLimiter;
import dev.objlog.store.Sleeper;
import dev.objlog.store.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * A token bucket: {@code objectsPerSecond} tokens accrue up to {@code burst}; a request for n
 * deletes takes them in chunks of at most {@code burst}, waiting for each chunk (so a batch larger
 * than the burst is spread out rather than refused).
 *
 * <p>Thread-safety: safe for concurrent use; tokens are reserved under a lock, waiting is not.
 */
public final class TokenBucketDeleteLimiter implements DeleteRateLimiter {
  private final double perSecond;
  private final int burst;
  /** Elapsed time, which tokens refill by; a step of the wall clock must not add or withhold any. */
  private final Ticker ticker;
  private final Sleeper sleeper;
  private double tokens;
  private long lastNanos;
  private boolean started;

  private TokenBucketDeleteLimiter(double perSecond, int burst, Ticker ticker, Sleeper sleeper) {
    this.perSecond = perSecond;
    this.burst = burst;
    this.ticker = ticker;
    this.sleeper = sleeper;
    this.tokens = burst;
  }

  /**
   * @param objectsPerSecond sustained deletes per second, positive
   * @param burst deletes allowed at once, at least 1
   * @throws InvalidArgumentException for a non-positive rate or burst
   */
  public static TokenBucketDeleteLimiter of(double objectsPerSecond, int burst) {
    return of(objectsPerSecond, burst, Ticker.SYSTEM, Sleeper.SYSTEM);
  }

  /**
   * As {@link #of(double, int, Ticker, Sleeper)} with tokens refilled by {@code clock}.
   *
   * @deprecated a step of the wall clock adds or withholds tokens; pass a {@link Ticker}
   */
  @Deprecated
  public static TokenBucketDeleteLimiter of(double objectsPerSecond, int burst, Clock clock,
      Sleeper sleeper) {
    return of(objectsPerSecond, burst, RequestRateLimiter.ticker(clock), sleeper);
  }

  /** As {@link #of(double, int)} on the given elapsed time and sleeper (virtual time in tests). */
  public static TokenBucketDeleteLimiter of(double objectsPerSecond, int burst, Ticker ticker,
      Sleeper sleeper) {
    if (!(objectsPerSecond > 0) || Double.isInfinite(objectsPerSecond)) {
      throw new InvalidArgumentException("objectsPerSecond must be positive and finite, was "
          + objectsPerSecond);
    }
    if (burst < 1) {
      throw new InvalidArgumentException("burst must be at least 1, was " + burst);
    }
    return new TokenBucketDeleteLimiter(objectsPerSecond, burst,
        Objects.requireNonNull(ticker, "ticker"), Objects.requireNonNull(sleeper, "sleeper"));
  }

  @Override
  public void acquire(int objects) throws InterruptedException {
    int remaining = objects;
    while (remaining > 0) {
      int chunk = Math.min(remaining, burst);
      Duration wait;
      synchronized (this) {
        refill();
        tokens -= chunk;
        wait = tokens >= 0 ? Duration.ZERO
            : Duration.ofNanos((long) Math.ceil(-tokens / perSecond * 1e9));
      }
      if (!wait.isZero()) {
        sleeper.sleep(wait);
      }
      remaining -= chunk;
    }
  }

  private void refill() {
    long now = ticker.read();
    if (started) {
      double elapsed = Math.max(0, now - lastNanos) / 1e9;
      tokens = Math.min(burst, tokens + elapsed * perSecond);
    }
    started = true;
    lastNanos = now;
  }

  @Override
  public String toString() {
    return "TokenBucketDeleteLimiter[" + perSecond + "/s, burst " + burst + "]";
  }
}
