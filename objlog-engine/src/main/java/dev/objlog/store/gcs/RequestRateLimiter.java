package dev.objlog.store.gcs;

import dev.objlog.store.Sleeper;
import dev.objlog.store.TransientStoreException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Spaces requests evenly at a fixed rate: each request reserves the next free slot and sleeps until
 * it. No bursts beyond one request, so a bucket's request rate stays under the configured limit
 * even right after an idle period.
 *
 * <p>Thread-safety: safe for concurrent use; reservations are made under a lock, sleeping is not.
 */
final class RequestRateLimiter {
  /** A limiter that never waits. */
  static final RequestRateLimiter UNLIMITED = new RequestRateLimiter(0, Clock.systemUTC(), d -> {});

  private final long intervalNanos;
  private final Clock clock;
  private final Sleeper sleeper;
  private Instant nextFree = Instant.MIN;

  /** @param perSecond requests per second; 0 for no limit */
  RequestRateLimiter(double perSecond, Clock clock, Sleeper sleeper) {
    if (!(perSecond >= 0) || Double.isInfinite(perSecond)) {
      throw new IllegalArgumentException("requests per second must be finite and >= 0, was " + perSecond);
    }
    this.intervalNanos = perSecond == 0 ? 0 : Math.max(1, (long) (1_000_000_000L / perSecond));
    this.clock = clock;
    this.sleeper = sleeper;
  }

  /** Waits for this request's slot. */
  void acquire() {
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
