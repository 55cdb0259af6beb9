package dev.objlog.store.azure;

import dev.objlog.store.Sleeper;
import dev.objlog.store.TransientStoreException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Spaces requests evenly at a fixed rate: each caller reserves the next free slot and sleeps until
 * it. No bursts, so a storage account's per-second throttling limits are never exceeded by this
 * process even right after an idle period.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
final class RequestRateLimiter {
  private final long intervalNanos;
  private final Clock clock;
  private final Sleeper sleeper;
  private long nextFreeNanos = Long.MIN_VALUE;

  RequestRateLimiter(double requestsPerSecond, Clock clock, Sleeper sleeper) {
    if (!(requestsPerSecond > 0) || Double.isInfinite(requestsPerSecond)) {
      throw new IllegalArgumentException("requestsPerSecond must be positive and finite, was " + requestsPerSecond);
    }
    this.intervalNanos = Math.max(1, (long) (1_000_000_000L / requestsPerSecond));
    this.clock = clock;
    this.sleeper = sleeper;
  }

  void acquire() {
    long wait;
    synchronized (this) {
      long now = nanos(clock.instant());
      long slot = Math.max(now, nextFreeNanos);
      nextFreeNanos = slot + intervalNanos;
      wait = slot - now;
    }
    if (wait > 0) {
      try {
        sleeper.sleep(Duration.ofNanos(wait));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TransientStoreException("interrupted while waiting for the request rate limit", false, e);
      }
    }
  }

  private static long nanos(Instant instant) {
    return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
  }
}
