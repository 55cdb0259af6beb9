package dev.objlog.spring.listener.checkpoint;

import dev.objlog.CorruptObjectException;
import dev.objlog.coordination.BucketLease;
import dev.objlog.coordination.BucketLeaseStore;
import dev.objlog.coordination.CasDocument;
import dev.objlog.coordination.LeaseId;
import dev.objlog.coordination.PreviousReleaseLeases;
import dev.objlog.coordination.json.JsonObject;
import dev.objlog.coordination.json.JsonReader;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.read.CheckpointInvalidException;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.replica.ConsumerCheckpointDocument;
import dev.objlog.store.IndeterminateStoreException;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.StoredObject;
import dev.objlog.store.VersionToken;
import dev.objlog.spring.coordination.LeaseStoreProvider;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Checkpoints and leases in the log's own bucket, beside each partition's catalog
 * (ARCHITECTURE.md, "Our own objects in the bucket"):
 *
 * <ul>
 *   <li>{@code <catalogDir>consumers/<listener-id>/checkpoint.json}: the cursor checkpoint JSON
 *       (PROTOCOLS.md §5.5) plus {@code updated_unix_ms}, e.g. {@code
 *       {"version":1,"stream_id":"demo/orders","partition":7,"next_lsn":4,"updated_unix_ms":1700000000000}};
 *   <li>{@code <catalogDir>consumers/<group>/lease.json} and {@code
 *       <catalogDir>maintenance/writer-lease.json}: see {@link BucketLeaseStore}.
 * </ul>
 *
 * <p>Every write is a compare-and-swap; a checkpoint's {@link CheckpointVersion} is the store's
 * {@link VersionToken}. The repository needs no database and is shared by every instance using the
 * bucket, but it cannot join a database transaction: a listener that commits elsewhere gets
 * at-least-once delivery.
 *
 * <p>Error contract: {@link CheckpointConflictException} on a lost compare-and-swap; {@link
 * CorruptObjectException} for an object that is not a checkpoint; the store's exceptions
 * otherwise. A save the store reports as indeterminate is settled by reading the object back;
 * when that cannot tell, the {@link IndeterminateStoreException} propagates. A conflict whose
 * current object is byte for byte this save is this save (a retried swap after a lost reply).
 *
 * <p>Thread-safety: safe for concurrent use, within and across processes.
 */
public final class BucketCheckpointRepository implements CheckpointRepository, LeaseStoreProvider {
  /** Checkpoints are encoded here, with the save's time; the document helper moves bytes. */
  private static final CasDocument.Codec<byte[]> RAW = CasDocument.Codec.of(bytes -> bytes, bytes -> bytes);
  /** One swap a save; an ambiguous reply is settled by one read back. */
  private static final CasDocument.Retries ONE_ATTEMPT = CasDocument.Retries.immediate(1).indeterminateOnly();

  private final ObjectStore store;
  private final CatalogLocator locator;
  private final Clock clock;
  private final BucketLeaseStore leases;

  /** A repository with the system clock. */
  public BucketCheckpointRepository(ObjectStore store, CatalogLocator locator) {
    this(store, locator, Clock.systemUTC());
  }

  /**
   * A repository.
   *
   * @param store the store that holds the log
   * @param locator finds a stream partition's catalog folder from the stream's configured name
   * @param clock the source of save times and lease expiries
   */
  public BucketCheckpointRepository(ObjectStore store, CatalogLocator locator, Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.locator = Objects.requireNonNull(locator, "locator");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.leases = new BucketLeaseStore(store, locator::partition, clock);
  }

  /** The object key of {@code key}'s checkpoint. */
  public String checkpointObjectKey(CheckpointKey key) {
    return ConsumerCheckpointDocument.key(partition(key.streamName(), key.partition()).catalogDir(), key.listenerId());
  }

  /**
   * The partition lease of consumer group {@code group}, at {@code
   * <catalogDir>consumers/<group>/lease.json}.
   */
  public BucketLease groupLease(String group, String streamName, int partition) {
    Names.checkStreamName(streamName);
    return leases.lease(LeaseId.ofGroup(group, LeaseId.Role.PARTITION, streamName, partition));
  }

  /**
   * The lease of the single writer of a partition across instances, at {@code
   * <catalogDir>maintenance/writer-lease.json}.
   */
  public BucketLease writerLease(String streamName, int partition) {
    Names.checkStreamName(streamName);
    return leases.lease(LeaseId.ofWriters(LeaseId.Role.PARTITION, streamName, partition));
  }

  private PartitionKeys partition(String streamName, int partition) {
    return Objects.requireNonNull(locator.partition(streamName, partition), "locator returned null");
  }

  // ---- checkpoints ----

  @Override
  public Optional<StoredCheckpoint> load(CheckpointKey key) {
    Objects.requireNonNull(key, "key");
    String objectKey = checkpointObjectKey(key);
    try {
      return Optional.of(decode(key, store.get(objectKey)));
    } catch (ObjectNotFoundException e) {
      return Optional.empty();
    }
  }

  @Override
  public CheckpointVersion save(CheckpointKey key, CursorCheckpoint checkpoint, CheckpointVersion expectedVersion) {
    Checks.checkSave(key, checkpoint, expectedVersion);
    PartitionKeys keys = partition(key.streamName(), key.partition());
    if (!keys.streamId().equals(checkpoint.streamId())) {
      throw new IllegalArgumentException("checkpoint " + checkpoint.toJson() + " is for stream id '"
          + checkpoint.streamId() + "', but stream " + key.streamName() + " has id '" + keys.streamId() + "'");
    }
    String objectKey = checkpointObjectKey(key);
    VersionToken expected = VersionToken.of(expectedVersion.value());
    // The stored bytes carry this save's time, so bytes read back after an ambiguous reply, or
    // shown by a conflict after the adapter repeated a swap whose reply was lost, are this save.
    CasDocument.Swap swap;
    try {
      swap = new CasDocument<>(store, objectKey, "checkpoint", RAW, ONE_ATTEMPT)
          .swap(VersionToken.of(expectedVersion.value()), ConsumerCheckpointDocument.encode(checkpoint, clock.millis()));
    } catch (CasDocument.ExhaustedException e) {
      // The swap may or may not land later: the store's own error says so.
      throw (IndeterminateStoreException) Objects.requireNonNull(e.getCause());
    }
    if (swap instanceof CasDocument.Swap.Swapped swapped) {
      return CheckpointVersion.of(swapped.token().value());
    }
    @Nullable StoredObject current = ((CasDocument.Swap.Lost) swap).current();
    throw new CheckpointConflictException(key, expectedVersion, current == null ? null : decode(key, current));
  }

  private static StoredCheckpoint decode(CheckpointKey key, StoredObject object) {
    CursorCheckpoint checkpoint;
    @Nullable Object updated;
    try {
      checkpoint = CursorCheckpoint.parse(object.bytes());
      JsonObject fields = JsonReader.parseObject(object.bytes(), "checkpoint").requireFlat();
      updated = fields.has("updated_unix_ms") ? fields.unsignedAtMost("updated_unix_ms", Long.MAX_VALUE) : null;
    } catch (CheckpointInvalidException | CorruptObjectException e) {
      throw new CorruptObjectException(object.key() + " is not a checkpoint: " + e.getMessage(), e);
    }
    Instant updatedAt =
        updated == null ? object.metadata().lastModified() : Instant.ofEpochMilli((Long) updated);
    return new StoredCheckpoint(key, checkpoint, CheckpointVersion.of(object.token().value()), updatedAt);
  }

  // ---- leases ----

  /** The leases beside each partition's catalog. */
  @Override
  public BucketLeaseStore leaseStore() {
    return leases;
  }

  @Override
  public PreviousReleaseLeases.Layout leaseLayout() {
    return PreviousReleaseLeases.Layout.BUCKET;
  }

  @Override
  public String toString() {
    return "BucketCheckpointRepository[" + store.describe() + "]";
  }
}
