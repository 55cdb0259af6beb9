package dev.objlog.spring.listener.checkpoint;

import dev.objlog.spring.core.WriterLeaseStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The template's writer leases kept by a {@link LeaseRepository}, beside the listeners' group
 * leases: partition leases under the group {@value #PARTITION_GROUP} and membership slots under
 * {@value #MEMBER_GROUP} (slot {@code i} is keyed like partition {@code i}), so listener groups must
 * not use these two names. With a {@link BucketCheckpointRepository}, partition leases live at
 * each partition's {@code maintenance/writer-lease.json} ({@link
 * BucketCheckpointRepository#writerLease}) instead.
 *
 * <p>Thread-safety: as safe as the repository (every implementation here is).
 */
public final class RepositoryWriterLeaseStore implements WriterLeaseStore {
  /** The lease group of partition writer leases. */
  public static final String PARTITION_GROUP = "objlog-writer";
  /** The lease group of writer membership slots. */
  public static final String MEMBER_GROUP = "objlog-writer-members";

  private final LeaseRepository repository;

  public RepositoryWriterLeaseStore(LeaseRepository repository) {
    this.repository = Objects.requireNonNull(repository, "repository");
  }

  @Override
  public OptionalLong tryAcquire(Kind kind, String streamName, int index, String owner, Duration ttl) {
    LeaseResult result = bucketWriterLease(kind, streamName, index) instanceof BucketLease lease
        ? lease.tryAcquire(owner, ttl)
        : repository.tryAcquire(key(kind, streamName, index), owner, ttl);
    return result.grantedLease().map(l -> OptionalLong.of(l.epoch())).orElse(OptionalLong.empty());
  }

  @Override
  public boolean renew(Kind kind, String streamName, int index, String owner, long epoch, Duration ttl) {
    Lease held = held(owner, epoch);
    LeaseResult result = bucketWriterLease(kind, streamName, index) instanceof BucketLease lease
        ? lease.renew(held, ttl)
        : repository.renew(key(kind, streamName, index), held, ttl);
    return result.granted();
  }

  @Override
  public void release(Kind kind, String streamName, int index, String owner, long epoch) {
    Lease held = held(owner, epoch);
    if (bucketWriterLease(kind, streamName, index) instanceof BucketLease lease) {
      lease.release(held);
    } else {
      repository.release(key(kind, streamName, index), held);
    }
  }

  @Override
  public boolean isHeld(Kind kind, String streamName, int index) {
    return bucketWriterLease(kind, streamName, index) instanceof BucketLease lease
        ? lease.current().isPresent()
        : repository.current(key(kind, streamName, index)).isPresent();
  }

  /** The dedicated writer-lease object, for partition leases in a bucket repository. */
  private Object bucketWriterLease(Kind kind, String streamName, int index) {
    return kind == Kind.PARTITION && repository instanceof BucketCheckpointRepository bucket
        ? bucket.writerLease(streamName, index)
        : repository;
  }

  private static LeaseKey key(Kind kind, String streamName, int index) {
    return LeaseKey.of(kind == Kind.PARTITION ? PARTITION_GROUP : MEMBER_GROUP, streamName, index);
  }

  /** The repositories compare owner and epoch only; the expiry is theirs to keep. */
  private static Lease held(String owner, long epoch) {
    return new Lease(owner, Instant.EPOCH, epoch);
  }

  @Override
  public String toString() {
    return "RepositoryWriterLeaseStore[" + repository + "]";
  }
}
