package dev.objlog.spring.listener.checkpoint;

import dev.objlog.read.CursorCheckpoint;
import java.util.Optional;

/**
 * Where listeners keep their positions: one {@link CursorCheckpoint} per (listener id, stream
 * name, partition), saved with optimistic concurrency so that two instances cannot both advance the
 * same checkpoint.
 *
 * <p>Implementations: {@link InMemoryCheckpointRepository} (one process, lost on restart), {@link
 * JdbcCheckpointRepository} (a database table; saves join the caller's Spring transaction on the
 * same {@code DataSource}, which makes a transactional listener effectively-once) and {@link
 * BucketCheckpointRepository} ({@code consumers/<id>/checkpoint.json} beside the partition's
 * catalog, written with compare-and-swap). Each of them also keeps leases on its storage ({@code
 * leaseStore()}, the listener groups' and writer leases' default {@code LeaseStore}).
 *
 * <p>Usage: {@link #load} before consuming, remember the {@link StoredCheckpoint#version()}, and
 * pass it to every {@link #save}; the returned version is the one to pass next time. Start with
 * {@link CheckpointVersion#ABSENT} when nothing was stored.
 *
 * <p>Error contract: {@link CheckpointConflictException} when the stored version is not the
 * expected one (nothing written; terminal for this position: reload). Storage failures surface as
 * the storage's own unchecked exceptions (Spring's {@code DataAccessException}, objlog's {@code
 * StoreException}); an {@code IndeterminateStoreException} means the save may or may not have
 * happened, so reload to find out.
 *
 * <p>Thread-safety: implementations are safe for concurrent use.
 */
public interface CheckpointRepository {

  /** The stored checkpoint, or empty when none was saved under {@code key}. */
  Optional<StoredCheckpoint> load(CheckpointKey key);

  /** {@link #load(CheckpointKey)} of {@code CheckpointKey.of(listenerId, streamName, partition)}. */
  default Optional<StoredCheckpoint> load(String listenerId, String streamName, int partition) {
    return load(CheckpointKey.of(listenerId, streamName, partition));
  }

  /**
   * Stores {@code checkpoint} under {@code key} if the stored version is still {@code
   * expectedVersion} ({@link CheckpointVersion#ABSENT}: if nothing is stored yet).
   *
   * @return the new version, to pass to the next save
   * @throws CheckpointConflictException when another version is stored; nothing was written
   * @throws IllegalArgumentException when the checkpoint's partition is not the key's, or the
   *     version did not come from this kind of repository
   */
  CheckpointVersion save(CheckpointKey key, CursorCheckpoint checkpoint, CheckpointVersion expectedVersion);
}
