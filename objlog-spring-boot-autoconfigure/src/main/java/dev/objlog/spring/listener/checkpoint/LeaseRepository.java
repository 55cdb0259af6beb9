package dev.objlog.spring.listener.checkpoint;

import java.time.Duration;
import java.util.Optional;

/**
 * Leases that let the members of a consumer group share a stream's partitions: at most one valid
 * lease per (group, stream name, partition), with an expiry the holder extends by renewing. An
 * expired lease can be taken by another owner; the former holder's renewal then fails.
 *
 * <p>Time comes from the repository's {@link java.time.Clock} (its instance's clock, not the
 * storage's): instances whose clocks disagree by more than a small part of the ttl can overlap.
 * Ttls are at least a millisecond.
 *
 * <p>Semantics, the same in every implementation:
 *
 * <ul>
 *   <li>{@link #tryAcquire}: granted when nobody holds a valid lease or the caller already does
 *       (then it is extended, same epoch); refused with the holder's lease otherwise. Taking over
 *       from another owner or after a release increments the epoch.
 *   <li>{@link #renew}: granted only while the stored lease is still the caller's (same owner and
 *       epoch, not released). A lease that expired but that nobody took since can still be
 *       renewed: its unchanged epoch proves nobody else held it.
 *   <li>{@link #release}: gives the lease up if it is still the caller's; others can take it at
 *       once.
 * </ul>
 *
 * <p>Error contract: refusals are answers ({@link LeaseResult.Refused}, {@code false}), not
 * exceptions. Storage failures surface as the storage's unchecked exceptions. On PostgreSQL, call
 * the JDBC variant outside a transaction you want to keep: a lost insert race aborts the
 * surrounding transaction.
 *
 * <p>Thread-safety: implementations are safe for concurrent use.
 */
public interface LeaseRepository {

  /** Takes or extends the lease for {@code owner}, valid for {@code ttl} from now. */
  LeaseResult tryAcquire(LeaseKey key, String owner, Duration ttl);

  /** {@link #tryAcquire(LeaseKey, String, Duration)} of {@code LeaseKey.of(group, streamName, partition)}. */
  default LeaseResult tryAcquire(String group, String streamName, int partition, String owner, Duration ttl) {
    return tryAcquire(LeaseKey.of(group, streamName, partition), owner, ttl);
  }

  /** Extends {@code held} to {@code ttl} from now, if it is still the stored lease. */
  LeaseResult renew(LeaseKey key, Lease held, Duration ttl);

  /**
   * Gives {@code held} up.
   *
   * @return true when it was released; false when it was no longer the caller's
   */
  boolean release(LeaseKey key, Lease held);

  /** The valid lease, or empty when nobody holds one now. */
  Optional<Lease> current(LeaseKey key);
}
