package dev.objlog.spring.listener.checkpoint;

import dev.objlog.coordination.LeaseId;
import dev.objlog.coordination.LeaseStore;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A deprecated {@link LeaseRepository} as a {@link LeaseStore}, and the repositories' old lease
 * methods over their new stores: the two lease types converted both ways, nothing else.
 *
 * <p>Thread-safety: as safe as the repository or store it wraps.
 */
@SuppressWarnings("deprecation")
final class LeaseRepositoryStore implements LeaseStore {
  private final LeaseRepository repository;

  LeaseRepositoryStore(LeaseRepository repository) {
    this.repository = Objects.requireNonNull(repository, "repository");
  }

  /** The repository key of {@code id}: its stored group. */
  static LeaseKey key(LeaseId id) {
    return LeaseKey.of(id.storedGroup(), id.streamName(), id.index());
  }

  /** The store id of {@code key}: a consumer group's partition lease under the key's group. */
  static LeaseId id(LeaseKey key) {
    Objects.requireNonNull(key, "key");
    return LeaseId.ofGroup(key.group(), LeaseId.Role.PARTITION, key.streamName(), key.partition());
  }

  static dev.objlog.coordination.Lease toStore(Lease lease) {
    Objects.requireNonNull(lease, "held");
    return new dev.objlog.coordination.Lease(lease.owner(), lease.until(), lease.epoch());
  }

  static Lease toRepository(dev.objlog.coordination.Lease lease) {
    return new Lease(lease.owner(), lease.until(), lease.epoch());
  }

  static dev.objlog.coordination.LeaseResult toStore(LeaseResult result) {
    if (result instanceof LeaseResult.Granted g) {
      return new dev.objlog.coordination.LeaseResult.Granted(toStore(g.lease()));
    }
    Lease holder = ((LeaseResult.Refused) result).holder();
    return new dev.objlog.coordination.LeaseResult.Refused(holder == null ? null : toStore(holder));
  }

  static LeaseResult toRepository(dev.objlog.coordination.LeaseResult result) {
    if (result instanceof dev.objlog.coordination.LeaseResult.Granted g) {
      return new LeaseResult.Granted(toRepository(g.lease()));
    }
    dev.objlog.coordination.Lease holder = ((dev.objlog.coordination.LeaseResult.Refused) result).holder();
    return new LeaseResult.Refused(holder == null ? null : toRepository(holder));
  }

  @Override
  public dev.objlog.coordination.LeaseResult tryAcquire(LeaseId id, String owner, Duration ttl) {
    return toStore(repository.tryAcquire(key(id), owner, ttl));
  }

  @Override
  public dev.objlog.coordination.LeaseResult renew(LeaseId id, dev.objlog.coordination.Lease held, Duration ttl) {
    return toStore(repository.renew(key(id), toRepository(held), ttl));
  }

  @Override
  public boolean release(LeaseId id, dev.objlog.coordination.Lease held) {
    return repository.release(key(id), toRepository(held));
  }

  @Override
  public Optional<dev.objlog.coordination.Lease> current(LeaseId id) {
    return repository.current(key(id)).map(LeaseRepositoryStore::toStore);
  }

  @Override
  public String toString() {
    return "LeaseStore[" + repository + "]";
  }

  /**
   * The old lease methods of a repository that keeps its leases in a {@link LeaseStore}: lease
   * {@code key} is the consumer-group partition lease of the key's group.
   */
  interface Backed extends LeaseRepository {
    @Override
    LeaseStore leaseStore();

    @Override
    default LeaseResult tryAcquire(LeaseKey key, String owner, Duration ttl) {
      return toRepository(leaseStore().tryAcquire(id(key), owner, ttl));
    }

    @Override
    default LeaseResult renew(LeaseKey key, Lease held, Duration ttl) {
      return toRepository(leaseStore().renew(id(key), toStore(held), ttl));
    }

    @Override
    default boolean release(LeaseKey key, Lease held) {
      return leaseStore().release(id(key), toStore(held));
    }

    @Override
    default Optional<Lease> current(LeaseKey key) {
      return leaseStore().current(id(key)).map(LeaseRepositoryStore::toRepository);
    }
  }
}
