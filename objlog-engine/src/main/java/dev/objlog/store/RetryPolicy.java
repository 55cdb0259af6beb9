package dev.objlog.store;

import java.time.Duration;
import java.util.Objects;

/**
 * How an adapter retries a request that failed transiently: up to {@code maxAttempts} tries,
 * sleeping between them for an exponentially growing, jittered backoff, and giving each try at
 * most {@code requestTimeout}.
 *
 * <p>Thread-safety: immutable.
 *
 * @param maxAttempts total tries, at least 1
 * @param initialBackoff the backoff before the second try
 * @param maxBackoff the backoff never grows past this
 * @param jitter fraction in [0, 1] of each backoff that is randomised ("equal jitter" at 0.5)
 * @param requestTimeout the longest one try may take
 */
public record RetryPolicy(
    int maxAttempts, Duration initialBackoff, Duration maxBackoff, double jitter, Duration requestTimeout) {

  /** Six tries, 50 ms doubling to 2 s, half jittered, 30 s per try. */
  public static final RetryPolicy DEFAULT =
      new RetryPolicy(6, Duration.ofMillis(50), Duration.ofSeconds(2), 0.5, Duration.ofSeconds(30));

  /** One try, for tests that want to see every failure. */
  public static final RetryPolicy NONE =
      new RetryPolicy(1, Duration.ZERO, Duration.ZERO, 0, Duration.ofSeconds(30));

  public RetryPolicy {
    Objects.requireNonNull(initialBackoff, "initialBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    Objects.requireNonNull(requestTimeout, "requestTimeout");
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
    }
    if (initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0) {
      throw new IllegalArgumentException(
          "backoff must satisfy 0 <= initialBackoff <= maxBackoff, was " + initialBackoff + ".." + maxBackoff);
    }
    if (!(jitter >= 0 && jitter <= 1)) {
      throw new IllegalArgumentException("jitter must be within [0, 1], was " + jitter);
    }
    if (requestTimeout.isNegative() || requestTimeout.isZero()) {
      throw new IllegalArgumentException("requestTimeout must be positive, was " + requestTimeout);
    }
  }

  /** The backoff before try {@code attempt + 1} (attempt counts from 1), before jitter. */
  public Duration backoffAfter(int attempt) {
    long base = initialBackoff.toNanos();
    long cap = maxBackoff.toNanos();
    int shift = Math.min(attempt - 1, 40);
    long grown = base > (cap >> shift) ? cap : base << shift;
    return Duration.ofNanos(Math.min(grown, cap));
  }
}
