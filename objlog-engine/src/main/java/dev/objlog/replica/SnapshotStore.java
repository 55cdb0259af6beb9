package dev.objlog.replica;

import dev.objlog.InvalidArgumentException;
import dev.objlog.Objlog;
import dev.objlog.PartitionHead;
import dev.objlog.SnapshotMarker;
import dev.objlog.store.ObjectStore;
import java.util.Objects;
import java.util.UUID;

/**
 * Where application snapshots live: the payload a {@link SnapshotMarker#objectKey()} names. The
 * engine records and reads the marker ({@link Objlog#recordSnapshot}, {@link
 * Objlog#latestSnapshot}); this store holds the bytes the marker points to.
 *
 * <p>{@link #publish} is the order that keeps a crash harmless: the payload first, under a key
 * never used before, then the marker. A crash between the two leaves an unreferenced payload and
 * the previous marker (whose payload is untouched) in effect; a replica bootstrapping then starts
 * from the previous snapshot and replays more. Payloads are never overwritten or deleted by the
 * engine; removing superseded ones is the application's choice.
 *
 * <p>Error contract: {@link SnapshotMissingException} when {@link #read} finds no payload (terminal
 * for that marker); storage failures are the storage's own unchecked exceptions.
 *
 * <p>Thread-safety: implementations are safe for concurrent use.
 */
public interface SnapshotStore {

  /**
   * Stores {@code payload} at {@code objectKey}, create-only.
   *
   * @throws InvalidArgumentException if something is already stored there
   */
  void write(String objectKey, byte[] payload);

  /**
   * The payload stored at {@code objectKey}.
   *
   * @throws SnapshotMissingException if there is none
   */
  byte[] read(String objectKey);

  /**
   * Publishes a snapshot of {@code partition}'s state through {@code throughLsn}: writes {@code
   * payload} under a fresh key ({@link #newObjectKey}), then records the marker.
   *
   * @return the marker now in effect
   * @throws InvalidArgumentException if {@code throughLsn} is not committed yet
   * @throws dev.objlog.SnapshotRegressionException if a newer snapshot covers a higher LSN (the
   *     payload written stays unreferenced)
   */
  default SnapshotMarker publish(Objlog log, int partition, long throughLsn, byte[] payload) {
    Objects.requireNonNull(log, "log");
    Objects.requireNonNull(payload, "payload");
    long next = log.head(partition).map(PartitionHead::nextLsn).orElse(0L);
    if (Long.compareUnsigned(throughLsn, next) >= 0) {
      // Checked before the payload is written, so a refused snapshot leaves nothing behind.
      throw new InvalidArgumentException("cannot publish a snapshot through uncommitted LSN "
          + Long.toUnsignedString(throughLsn) + " (next LSN " + Long.toUnsignedString(next) + ")");
    }
    String key = newObjectKey(log, partition, throughLsn);
    write(key, payload);
    return log.recordSnapshot(partition, throughLsn, key);
  }

  /**
   * A key no snapshot used before: {@code <catalogDir>snapshots/<through_lsn, 20 digits>-<uuid>}
   * beside the partition's catalog (never under {@code segments/} or {@code pages/}, which
   * reclamation owns).
   */
  static String newObjectKey(Objlog log, int partition, long throughLsn) {
    return DocumentCursorStore.partitionKeys(log, partition).catalogDir() + "snapshots/"
        + String.format("%020d", new java.math.BigInteger(Long.toUnsignedString(throughLsn)))
        + "-" + UUID.randomUUID();
  }

  /** Snapshots as objects of {@code store} (the log's own bucket: {@code log.store()}). */
  static SnapshotStore inBucket(ObjectStore store) {
    return new BucketSnapshotStore(store);
  }
}
