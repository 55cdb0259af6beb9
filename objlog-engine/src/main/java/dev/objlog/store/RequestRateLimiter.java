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
  public static final RequestRateLimiter UNLIMITED = new RequestRateLimiter(0, Ticker.SYSTEM, d -> {});

  private final long intervalNanos;
  private final Ticker ticker;
  private final Sleeper sleeper;
  // Guarded by this. A ticker reading; meaningful once reserved.
  private long nextFree;
  private boolean reserved;

  private RequestRateLimiter(long intervalNanos, Ticker ticker, Sleeper sleeper) {
    this.intervalNanos = intervalNanos;
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
  }

  /**
   * @param perSecond requests per second; 0 for no limit
   * @param ticker elapsed time, which the slots are spaced on (a wall clock stepped back would
   *     hold every request until it caught up)
   * @throws IllegalArgumentException for a negative, infinite or NaN rate
   */
  public static RequestRateLimiter of(double perSecond, Ticker ticker, Sleeper sleeper) {
    if (!(perSecond >= 0) || Double.isInfinite(perSecond)) {
      throw new IllegalArgumentException("requests per second must be finite and >= 0, was " + perSecond);
    }
    if (perSecond == 0) {
      return UNLIMITED;
    }
    return new RequestRateLimiter(Math.max(1, (long) (1_000_000_000d / perSecond)), ticker, sleeper);
  }

  /**
   * As {@link #of(double, Ticker, Sleeper)}, spacing slots on {@code clock}.
   *
   * @deprecated a wall clock stepped back stalls requests until it catches up; pass a {@link Ticker}
   */
  @Deprecated
  public static RequestRateLimiter of(double perSecond, Clock clock, Sleeper sleeper) {
    return of(perSecond, ticker(clock), sleeper);
  }

  /** Reads {@code clock} as nanoseconds: for the deprecated clock-based settings only. */
  public static Ticker ticker(Clock clock) {
    Objects.requireNonNull(clock, "clock");
    return () -> {
      Instant now = clock.instant();
      return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    };
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
    long wait;
    synchronized (this) {
      long now = ticker.read();
      long slot = reserved && nextFree - now > 0 ? nextFree : now;
      nextFree = slot + intervalNanos;
      reserved = true;
      wait = slot - now;
    }
    if (wait <= 0) {
      return;
    }
    try {
      sleeper.sleep(Duration.ofNanos(wait));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransientStoreException("interrupted while waiting for the request rate limit", false, e);
    }
  }
}
