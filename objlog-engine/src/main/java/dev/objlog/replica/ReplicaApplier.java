package dev.objlog.replica;

import dev.objlog.SnapshotMarker;

/**
 * What a {@link Replica} hands records to: the application's state machine.
 *
 * <p>Delivery is at-least-once. The runner saves a partition's cursor after {@link #apply}
 * returns; a crash (or an exception) between the two delivers the batch again on restart, so
 * applying must be idempotent per record, keyed by (stream id, partition, LSN): the same key is
 * always the same record. A state that stores the LSN it applied through can skip what it has.
 *
 * <p>Thread-safety: the runner calls a partition's methods from that partition's thread only,
 * one call at a time; different partitions may call at the same time.
 */
public interface ReplicaApplier {

  /**
   * Applies {@code batch} (records in LSN order, contiguous). An exception stops the partition
   * ({@link Replica.State#FAILED}) with the cursor before the batch.
   */
  void apply(ReplicaBatch batch) throws Exception;

  /**
   * Replaces the partition's state with the snapshot {@code marker} names, whose {@code payload}
   * the {@link SnapshotStore} returned; the next batch starts at {@link
   * SnapshotMarker#replayFromLsn()}. Called before the first batch when the replica has no cursor
   * or its cursor fell below the retention floor, and again if it falls below the floor while
   * running. The default refuses: a replica without snapshot support must keep up with retention.
   */
  default void restore(SnapshotMarker marker, byte[] payload) throws Exception {
    throw new UnsupportedOperationException("this applier cannot restore a snapshot; partition "
        + Integer.toUnsignedString(marker.partition()) + " needs one through LSN "
        + Long.toUnsignedString(marker.throughLsn()));
  }
}
