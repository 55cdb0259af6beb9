package dev.objlog.spring.listener.checkpoint;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A stored lease row or document, and the rules every repository applies to it. An empty owner
 * means released. Times are Unix milliseconds.
 */
record LeaseState(String owner, long untilMs, long epoch) {
  static final String RELEASED = "";

  LeaseState {
    Objects.requireNonNull(owner, "owner");
  }

  boolean validAt(long nowMs) {
    return !owner.isEmpty() && untilMs > nowMs;
  }

  boolean isHeldBy(Lease lease) {
    return !owner.isEmpty() && owner.equals(lease.owner()) && epoch == lease.epoch();
  }

  Lease toLease() {
    return new Lease(owner, Instant.ofEpochMilli(untilMs), epoch);
  }

  @Nullable Lease validLeaseAt(long nowMs) {
    return validAt(nowMs) ? toLease() : null;
  }

  /** The state after {@code owner} acquires, or null when another owner holds a valid lease. */
  static @Nullable LeaseState acquire(@Nullable LeaseState current, String owner, long nowMs, long ttlMs) {
    long until = saturatedAdd(nowMs, ttlMs);
    if (current == null) {
      return new LeaseState(owner, until, 1);
    }
    if (current.validAt(nowMs) && !current.owner.equals(owner)) {
      return null;
    }
    long epoch = current.owner.equals(owner) ? current.epoch : current.epoch + 1;
    return new LeaseState(owner, until, epoch);
  }

  /** The state after the holder of {@code held} renews, or null when it is no longer theirs. */
  static @Nullable LeaseState renew(@Nullable LeaseState current, Lease held, long nowMs, long ttlMs) {
    if (current == null || !current.isHeldBy(held)) {
      return null;
    }
    return new LeaseState(held.owner(), saturatedAdd(nowMs, ttlMs), held.epoch());
  }

  /** The state after the holder of {@code held} releases, or null when it is no longer theirs. */
  static @Nullable LeaseState release(@Nullable LeaseState current, Lease held) {
    if (current == null || !current.isHeldBy(held)) {
      return null;
    }
    return new LeaseState(RELEASED, 0, held.epoch());
  }

  static long ttlMillis(Duration ttl) {
    Objects.requireNonNull(ttl, "ttl");
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("lease ttl must be positive: " + ttl);
    }
    long ms = ttl.compareTo(Duration.ofMillis(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : ttl.toMillis();
    return Math.max(1, ms);
  }

  /** {@code nowMs + ttlMs}, saturating at the largest instant. */
  static long expiry(long nowMs, long ttlMs) {
    return saturatedAdd(nowMs, ttlMs);
  }

  private static long saturatedAdd(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
  }
}
