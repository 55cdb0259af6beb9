package dev.objlog.coordination;

import dev.objlog.format.key.PartitionKeys;
import dev.objlog.store.ObjectStore;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Leases as {@link BucketLease} documents beside each partition's catalog (ARCHITECTURE.md, "Our
 * own objects in the bucket"):
 *
 * <ul>
 *   <li>a consumer group's partition lease at {@code <catalogDir>consumers/<group>/lease.json};
 *   <li>its member slot at {@code <catalogDir>consumers/<group>/member-lease.json};
 *   <li>a writer's partition lease at {@code <catalogDir>maintenance/writer-lease.json};
 *   <li>a writer's member slot at {@code <catalogDir>maintenance/writer-member-lease.json},
 * </ul>
 *
 * <p>each in the catalog folder of partition {@link LeaseId#index()}. Group names have no {@code
 * /}, so no group reaches another group's documents, nor the writers' (which are outside {@code
 * consumers/}), nor a listener's {@code consumers/<id>/checkpoint.json}.
 *
 * <p>Error contract and thread-safety: those of {@link BucketLease}.
 */
public final class BucketLeaseStore implements LeaseStore {

  /** Finds a partition's keys from the stream's configured name. */
  @FunctionalInterface
  public interface Locator {
    /**
     * The keys of {@code partition} of the stream configured under {@code streamName}.
     *
     * @throws IllegalArgumentException when no stream has that name
     */
    PartitionKeys partition(String streamName, int partition);
  }

  private final ObjectStore store;
  private final Locator locator;
  private final Clock clock;

  /**
   * A lease store.
   *
   * @param clock the source of the expiries written; instances sharing leases need roughly
   *     agreeing clocks
   */
  public BucketLeaseStore(ObjectStore store, Locator locator, Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.locator = Objects.requireNonNull(locator, "locator");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The document of lease {@code id}. */
  public BucketLease lease(LeaseId id) {
    Objects.requireNonNull(id, "id");
    PartitionKeys keys = Objects.requireNonNull(locator.partition(id.streamName(), id.index()), "locator returned null");
    boolean slot = id.role() == LeaseId.Role.MEMBER;
    String objectKey = id.writers()
        ? keys.catalogDir() + (slot ? "maintenance/writer-member-lease.json" : "maintenance/writer-lease.json")
        : keys.catalogDir() + "consumers/" + id.group() + (slot ? "/member-lease.json" : "/lease.json");
    return new BucketLease(store, objectKey, clock);
  }

  @Override
  public LeaseResult tryAcquire(LeaseId id, String owner, Duration ttl) {
    return lease(id).tryAcquire(owner, ttl);
  }

  @Override
  public LeaseResult renew(LeaseId id, Lease held, Duration ttl) {
    return lease(id).renew(held, ttl);
  }

  @Override
  public boolean release(LeaseId id, Lease held) {
    return lease(id).release(held);
  }

  @Override
  public Optional<Lease> current(LeaseId id) {
    return lease(id).current();
  }

  @Override
  public String toString() {
    return "BucketLeaseStore[" + store.describe() + "]";
  }
}
