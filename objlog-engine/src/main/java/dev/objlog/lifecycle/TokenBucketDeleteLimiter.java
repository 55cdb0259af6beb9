package dev.objlog.lifecycle;

import dev.objlog.InvalidArgumentException;
import dev.objlog.store.Sleeper;
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
  private final Clock clock;
  private final Sleeper sleeper;
  private double tokens;
  private long lastNanos;
  private boolean started;

  private TokenBucketDeleteLimiter(double perSecond, int burst, Clock clock, Sleeper sleeper) {
    this.perSecond = perSecond;
    this.burst = burst;
    this.clock = clock;
    this.sleeper = sleeper;
    this.tokens = burst;
  }

  /**
   * @param objectsPerSecond sustained deletes per second, positive
   * @param burst deletes allowed at once, at least 1
   * @throws InvalidArgumentException for a non-positive rate or burst
   */
  public static TokenBucketDeleteLimiter of(double objectsPerSecond, int burst) {
    return of(objectsPerSecond, burst, Clock.systemUTC(), Sleeper.SYSTEM);
  }

  /** As {@link #of(double, int)} on the given time source (virtual time in tests). */
  public static TokenBucketDeleteLimiter of(double objectsPerSecond, int burst, Clock clock,
      Sleeper sleeper) {
    if (!(objectsPerSecond > 0) || Double.isInfinite(objectsPerSecond)) {
      throw new InvalidArgumentException("objectsPerSecond must be positive and finite, was "
          + objectsPerSecond);
    }
    if (burst < 1) {
      throw new InvalidArgumentException("burst must be at least 1, was " + burst);
    }
    return new TokenBucketDeleteLimiter(objectsPerSecond, burst,
        Objects.requireNonNull(clock, "clock"), Objects.requireNonNull(sleeper, "sleeper"));
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
    long now = clock.instant().getEpochSecond() * 1_000_000_000L + clock.instant().getNano();
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
