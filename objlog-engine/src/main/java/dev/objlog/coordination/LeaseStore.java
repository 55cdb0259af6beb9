package dev.objlog.coordination;

import java.time.Duration;
import java.util.Optional;

/**
 * Where leases live: at most one valid lease per {@link LeaseId}, with an expiry the holder
 * extends by renewing. An expired lease can be taken by another owner; the former holder's renewal
 * then fails. Implementations: {@link BucketLeaseStore} (documents beside each partition's
 * catalog); the Spring module adds JDBC and in-memory stores.
 *
 * <p>Expiries are wall time from the store's {@link java.time.Clock} (the instance's clock, not the
 * storage's), since other instances read them: instances whose clocks disagree by more than a
 * small part of the ttl can overlap. A holder decides how long it may still act on elapsed time
 * ({@link PartitionSharing}), never on these expiries. Ttls are at least a millisecond.
 *
 * <p>Semantics, the same in every implementation ({@link LeaseState} holds the rules):
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
 * exceptions. Storage failures surface as the storage's unchecked exceptions; after one the caller
 * treats the lease as unknown until its own deadline passes.
 *
 * <p>Thread-safety: implementations are safe for concurrent use, within and across processes.
 */
public interface LeaseStore {

  /** Takes or extends the lease for {@code owner}, valid for {@code ttl} from now. */
  LeaseResult tryAcquire(LeaseId id, String owner, Duration ttl);

  /** Extends {@code held} to {@code ttl} from now, if it is still the stored lease. */
  LeaseResult renew(LeaseId id, Lease held, Duration ttl);

  /**
   * Gives {@code held} up.
   *
   * @return true when it was released; false when it was no longer the caller's
   */
  boolean release(LeaseId id, Lease held);

  /** The valid lease, or empty when nobody holds one now. */
  Optional<Lease> current(LeaseId id);
}
