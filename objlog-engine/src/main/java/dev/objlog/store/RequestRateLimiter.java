package dev.objlog.store;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Spaces requests evenly so that at most {@code perSecond} start per second: each caller reserves
 * the next free slot and sleeps until it. No bursts, because the point is to stay under a
 * provider's request-rate limits (S3 answers 503 SlowDown past ~3,500 writes/s per prefix, Azure
 * throttles per account), and a burst right after an idle period is what trips them. Shared by the
 * provider adapters.
 *
 * <p>Thread-safety: safe for concurrent use; reservations are made under a lock, sleeping is not.
 */
public final class RequestRateLimiter {
  /** A limiter that never waits. */
  public static final RequestRateLimiter UNLIMITED = new RequestRateLimiter(0, Clock.systemUTC(), d -> {});

  private final long intervalNanos;
  private final Clock clock;
  private final Sleeper sleeper;
  private Instant nextFree = Instant.MIN;

  private RequestRateLimiter(long intervalNanos, Clock clock, Sleeper sleeper) {
    this.intervalNanos = intervalNanos;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
  }

  /**
   * @param perSecond requests per second; 0 for no limit
   * @throws IllegalArgumentException for a negative, infinite or NaN rate
   */
  public static RequestRateLimiter of(double perSecond, Clock clock, Sleeper sleeper) {
    if (!(perSecond >= 0) || Double.isInfinite(perSecond)) {
      throw new IllegalArgumentException("requests per second must be finite and >= 0, was " + perSecond);
    }
    if (perSecond == 0) {
      return UNLIMITED;
    }
    return new RequestRateLimiter(Math.max(1, (long) (1_000_000_000d / perSecond)), clock, sleeper);
  }

  /** Whether this limiter ever waits. */
  public boolean isLimited() {
    return intervalNanos > 0;
  }

  /** Waits for this request's slot. */
  public void acquire() {
    if (intervalNanos == 0) {
      return;
    }
    Duration wait;
    synchronized (this) {
      Instant now = clock.instant();
      Instant slot = nextFree.isAfter(now) ? nextFree : now;
      nextFree = slot.plusNanos(intervalNanos);
      wait = Duration.between(now, slot);
    }
    if (wait.isZero() || wait.isNegative()) {
      return;
    }
    try {
      sleeper.sleep(wait);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransientStoreException("interrupted while waiting for the request rate limit", false, e);
    }
  }
}
