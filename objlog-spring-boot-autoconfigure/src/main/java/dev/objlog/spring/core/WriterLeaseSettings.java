package dev.objlog.spring.core;

import java.time.Duration;
import java.util.Objects;

/**
 * How the instances writing one stream share its partitions by lease ({@code
 * objlog.streams.<name>.writer.lease.*}).
 *
 * <p>Thread-safety: immutable.
 *
 * @param ttl how long a lease lasts without renewal: an instance that stops without releasing
 *     keeps its partitions this long
 * @param renewInterval how often leases are renewed and free partitions claimed; shorter than
 *     {@code ttl}
 */
public record WriterLeaseSettings(Duration ttl, Duration renewInterval) {
  public WriterLeaseSettings {
    Objects.requireNonNull(ttl, "ttl");
    Objects.requireNonNull(renewInterval, "renewInterval");
    if (ttl.isNegative() || ttl.isZero() || renewInterval.isNegative() || renewInterval.isZero()) {
      throw new IllegalArgumentException(
          "writer lease ttl and renew interval must be positive: " + ttl + ", " + renewInterval);
    }
    if (renewInterval.compareTo(ttl) >= 0) {
      throw new IllegalArgumentException("the writer lease renew interval " + renewInterval
          + " must be shorter than its ttl " + ttl + ", or leases expire between renewals");
    }
  }

  /** {@code ttl}, renewed every third of it. */
  public static WriterLeaseSettings of(Duration ttl) {
    return new WriterLeaseSettings(ttl, ttl.dividedBy(3));
  }
}
