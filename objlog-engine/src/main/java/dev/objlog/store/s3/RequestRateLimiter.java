package dev.objlog.store.s3;

import dev.objlog.store.Sleeper;
import dev.objlog.store.TransientStoreException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Spaces requests evenly so that at most {@code perSecond} start per second: each caller reserves
 * the next free slot and sleeps until it. No bursts, because the point is to stay under a
 * provider's per-prefix request rate (S3 answers 503 SlowDown past ~3,500 writes/s per prefix),
 * and a burst is exactly what triggers that.
 *
 * <p>Thread-safety: safe for concurrent use; reservations are made under a lock, sleeping is not.
 */
final class RequestRateLimiter {
  private final long intervalNanos;
  private final Clock clock;
  private final Sleeper sleeper;
  private long nextFreeNanos = Long.MIN_VALUE;

  RequestRateLimiter(double perSecond, Clock clock, Sleeper sleeper) {
    if (!(perSecond > 0) || Double.isInfinite(perSecond)) {
      throw new IllegalArgumentException("requests per second must be positive and finite, was " + perSecond);
    }
    this.intervalNanos = Math.max(1, (long) (1_000_000_000d / perSecond));
    this.clock = clock;
    this.sleeper = sleeper;
  }

  /** Waits for the next slot. */
  void acquire() {
    long wait;
    synchronized (this) {
      long now = nanos(clock.instant());
      long slot = Math.max(now, nextFreeNanos);
      nextFreeNanos = slot + intervalNanos;
      wait = slot - now;
    }
    if (wait <= 0) {
      return;
    }
    try {
      sleeper.sleep(Duration.ofNanos(wait));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransientStoreException("interrupted while waiting for the S3 request rate limit", false, e);
    }
  }

  private static long nanos(Instant instant) {
    return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
  }
}
