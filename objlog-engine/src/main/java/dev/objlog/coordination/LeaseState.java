package dev.objlog.coordination;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A stored lease row or document, and the rules every {@link LeaseStore} applies to it (one place,
 * so that the stores cannot drift apart). An empty owner means released. Times are Unix
 * milliseconds.
 *
 * <p>Public only so that the Spring module's stores share it; documented as internal.
 *
 * <p>Thread-safety: immutable.
 *
 * @param owner the holder, or {@link #RELEASED}
 * @param untilMs the expiry, Unix milliseconds (0 when released)
 * @param epoch grows with every change of owner
 */
public record LeaseState(String owner, long untilMs, long epoch) {
  /** The owner of a released lease. */
  public static final String RELEASED = "";
  /** The longest owner or group name. */
  public static final int MAX_NAME_LENGTH = 255;

  public LeaseState {
    Objects.requireNonNull(owner, "owner");
  }

  /** Whether someone holds the lease at {@code nowMs}. */
  public boolean validAt(long nowMs) {
    return !owner.isEmpty() && untilMs > nowMs;
  }

  /** Whether the stored lease is still {@code lease} (same owner and epoch, not released). */
  public boolean isHeldBy(Lease lease) {
    return !owner.isEmpty() && owner.equals(lease.owner()) && epoch == lease.epoch();
  }

  /** This state as a lease; only for a state that is not released. */
  public Lease toLease() {
    return new Lease(owner, Instant.ofEpochMilli(untilMs), epoch);
  }

  /** The lease when valid at {@code nowMs}, else null. */
  public @Nullable Lease validLeaseAt(long nowMs) {
    return validAt(nowMs) ? toLease() : null;
  }

  /** The state after {@code owner} acquires, or null when another owner holds a valid lease. */
  public static @Nullable LeaseState acquire(@Nullable LeaseState current, String owner, long nowMs, long ttlMs) {
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
  public static @Nullable LeaseState renew(@Nullable LeaseState current, Lease held, long nowMs, long ttlMs) {
    if (current == null || !current.isHeldBy(held)) {
      return null;
    }
    return new LeaseState(held.owner(), saturatedAdd(nowMs, ttlMs), held.epoch());
  }

  /** The state after the holder of {@code held} releases, or null when it is no longer theirs. */
  public static @Nullable LeaseState release(@Nullable LeaseState current, Lease held) {
    if (current == null || !current.isHeldBy(held)) {
      return null;
    }
    return new LeaseState(RELEASED, 0, held.epoch());
  }

  /**
   * Checks a lease owner or group name: 1 to 255 characters, usable as one path segment (stores
   * turn it into folder names and column values).
   *
   * @throws IllegalArgumentException saying what is wrong
   */
  public static void checkName(String what, String value) {
    Objects.requireNonNull(value, what);
    if (value.isEmpty() || value.length() > MAX_NAME_LENGTH) {
      throw new IllegalArgumentException(what + " must be 1 to " + MAX_NAME_LENGTH + " characters: '" + value + "'");
    }
    if (value.equals(".") || value.equals("..")) {
      throw new IllegalArgumentException(what + " must not be '.' or '..'");
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '/' || c == '\\' || Character.isISOControl(c)) {
        throw new IllegalArgumentException(
            what + " must not contain '/', '\\' or control characters: '" + value + "'");
      }
    }
  }

  /** A ttl in milliseconds, at least one; refuses ttls that are not positive. */
  public static long ttlMillis(Duration ttl) {
    Objects.requireNonNull(ttl, "ttl");
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("lease ttl must be positive: " + ttl);
    }
    long ms = ttl.compareTo(Duration.ofMillis(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : ttl.toMillis();
    return Math.max(1, ms);
  }

  /** {@code nowMs + ttlMs}, saturating at the largest instant. */
  public static long expiry(long nowMs, long ttlMs) {
    return saturatedAdd(nowMs, ttlMs);
  }

  private static long saturatedAdd(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
  }
}
