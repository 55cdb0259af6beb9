package dev.objlog.spring.listener.checkpoint;

import java.time.Instant;
import java.util.Objects;

/**
 * <b>Deprecated</b> with {@link LeaseRepository}: use {@link dev.objlog.coordination.Lease}.
 *
 * <p> * A granted lease: who holds it, until when, and its epoch. The epoch grows by one whenever the
 * lease passes to a different owner (or is taken again after a release), and stays the same while
 * one owner renews or re-acquires it, so a holder can tell that nobody else held it in between.
 *
 * <p>Thread-safety: immutable.
 *
 * @param owner the holder's id
 * @param until the lease expires at this instant (millisecond precision)
 * @param epoch positive, growing with every change of owner
 */
@Deprecated(since = "0.1.0", forRemoval = true)
public record Lease(String owner, Instant until, long epoch) {

  public Lease {
    Names.checkOwnerId("owner", owner);
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
