package dev.objlog.spring.listener;

import dev.objlog.SnapshotMarker;
import java.util.Objects;

/**
 * The callback of a listener that can start from a snapshot: implement it on the bean that holds
 * the {@link ObjlogListener} method. With the start position {@code snapshot}, or the checkpoint
 * error outcome {@code snapshot} ({@code objlog.listener.checkpoint-errors.expired=snapshot} is
 * the common case), a partition that has to start where the log alone cannot give the state calls
 * {@link #onSnapshot} with the partition's newest snapshot, on the partition's thread, before its
 * first record; the records then continue at {@link SnapshotMarker#replayFromLsn()} (after a
 * checkpoint error the checkpoint is saved there at once; without one, with the first save).
 *
 * <p>A listener whose start position or checkpoint error outcome is {@code snapshot} but whose
 * bean does not implement this interface fails at startup.
 *
 * <p>Thread-safety: called from the partition's thread, never at the same time as the listener
 * method for that partition; different partitions may call at the same time.
 */
public interface SnapshotAwareListener {

  /**
   * Replaces the partition's state with {@code snapshot}. An exception stops the partition (its
   * container is then not in the expected state); the checkpoint stays where it was.
   */
  void onSnapshot(ListenerSnapshot snapshot) throws Exception;

  /**
   * A snapshot handed to a listener.
   *
   * <p>Thread-safety: immutable (the payload array is the callee's to keep).
   *
   * @param listenerId the checkpoint owner (the group, or the listener id)
   * @param streamName the stream's configured name
   * @param marker the snapshot marker: which partition, through which LSN, where the payload was
   * @param payload the bytes the application stored for the snapshot
   */
  record ListenerSnapshot(String listenerId, String streamName, SnapshotMarker marker, byte[] payload) {
    public ListenerSnapshot {
      Objects.requireNonNull(listenerId, "listenerId");
      Objects.requireNonNull(streamName, "streamName");
      Objects.requireNonNull(marker, "marker");
      Objects.requireNonNull(payload, "payload");
    }

    public int partition() {
      return marker.partition();
    }
  }
}
