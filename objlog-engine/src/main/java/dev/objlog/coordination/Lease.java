package dev.objlog.coordination;

import java.time.Instant;
import java.util.Objects;

/**
 * A granted lease: who holds it, until when, and its epoch. The epoch grows by one whenever the
 * lease passes to a different owner (or is taken again after a release), and stays the same while
 * one owner renews or re-acquires it, so a holder can tell that nobody else held it in between.
 *
 * <p>Thread-safety: immutable.
 *
 * @param owner the holder's id (not empty)
 * @param until the lease expires at this wall-clock instant (millisecond precision), as the store
 *     wrote it for other instances to read
 * @param epoch positive, growing with every change of owner
 */
public record Lease(String owner, Instant until, long epoch) {

  public Lease {
    Objects.requireNonNull(owner, "owner");
    if (owner.isEmpty()) {
      throw new IllegalArgumentException("a lease owner must not be empty");
    }
    Objects.requireNonNull(until, "until");
    if (epoch <= 0) {
      throw new IllegalArgumentException("epoch must be positive: " + epoch);
    }
  }

  /** Whether the lease is still valid at {@code now}. */
  public boolean isValidAt(Instant now) {
    return now.isBefore(until);
  }
}
