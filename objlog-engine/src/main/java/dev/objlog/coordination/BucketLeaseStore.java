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
 *   <li>a writer's partition lease at {@code <catalogDir>maintenance/writer-lease.json};
 *   <li>every other lease at {@code <catalogDir>consumers/<stored group>/lease.json} ({@link
 *       LeaseId#storedGroup()}), in the catalog folder of partition {@link LeaseId#index()}.
 * </ul>
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
    String objectKey = id.writers() && id.role() == LeaseId.Role.PARTITION
        ? keys.catalogDir() + "maintenance/writer-lease.json"
        : keys.catalogDir() + "consumers/" + id.storedGroup() + "/lease.json";
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
