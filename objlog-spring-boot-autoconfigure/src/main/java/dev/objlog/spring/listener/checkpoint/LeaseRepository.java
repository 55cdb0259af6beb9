package dev.objlog.spring.listener.checkpoint;

import dev.objlog.coordination.LeaseId;
import dev.objlog.coordination.LeaseStore;
import dev.objlog.spring.coordination.LeaseStoreProvider;
import java.time.Duration;
import java.util.Optional;

/**
 * <b>Deprecated:</b> the one lease SPI is now the engine's {@link LeaseStore} ({@code
 * dev.objlog.coordination}); listener groups and the template's writer leases use only it. A
 * {@code LeaseRepository} bean of an application's own is still used, through {@link
 * #leaseStore()} (CHANGELOG.md has the migration).
 *
 * <p>Leases that let the members of a consumer group share a stream's partitions: at most one valid
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
@Deprecated(since = "0.1.0", forRemoval = true)
public interface LeaseRepository extends LeaseStoreProvider {

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

  /**
   * These leases as a {@link LeaseStore}: lease {@code id} is the lease {@code
   * LeaseKey.of(id.storedGroup(), id.streamName(), id.index())}, the rows and documents earlier
   * releases used for it. The repositories of this package return their native store instead.
   */
  @Override
  default LeaseStore leaseStore() {
    return new LeaseRepositoryStore(this);
  }
}
