package dev.objlog.spring.listener;

import dev.objlog.Objlog;
import dev.objlog.PartitionHead;
import dev.objlog.replica.SnapshotBootstrap;
import dev.objlog.replica.SnapshotStore;
import java.util.Objects;
import java.util.Optional;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Where a listener partition starts from a snapshot: the newest snapshot handed to the listener's
 * {@link SnapshotAwareListener} and then its replay LSN; LSN 0 when there is no snapshot and the
 * log still holds everything.
 *
 * <p>Thread-safety: immutable; safe for concurrent use if the listener is.
 */
final class SnapshotStart {
  private static final Log logger = LogFactory.getLog(SnapshotStart.class);

  private final Objlog log;
  private final SnapshotStore snapshots;
  private final SnapshotAwareListener listener;

  SnapshotStart(Objlog log, SnapshotStore snapshots, SnapshotAwareListener listener) {
    this.log = Objects.requireNonNull(log, "log");
    this.snapshots = Objects.requireNonNull(snapshots, "snapshots");
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  /**
   * The LSN the partition starts at, after handing the snapshot to the listener.
   *
   * @param why why the partition needs it, for messages
   * @throws dev.objlog.replica.ReplicaBootstrapException if records were trimmed and no usable snapshot covers them
   */
  long start(String owner, String streamName, PartitionHead head, String why) {
    int partition = head.partition();
    Optional<SnapshotBootstrap.Loaded> loaded = SnapshotBootstrap.latest(log, snapshots, partition, head, why);
    if (loaded.isEmpty()) {
      if (head.oldestLsn() == 0) {
        return 0;
      }
      throw SnapshotBootstrap.noSnapshot(partition, why);
    }
    SnapshotBootstrap.Loaded s = loaded.get();
    String where = owner + "@" + streamName + "/" + Integer.toUnsignedString(partition);
    logger.info("Listener " + where + ": " + why + "; starting from the snapshot through LSN "
        + Long.toUnsignedString(s.marker().throughLsn()));
    try {
      listener.onSnapshot(new SnapshotAwareListener.ListenerSnapshot(owner, streamName, s.marker(), s.payload()));
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("listener " + where + " could not restore the snapshot through LSN "
          + Long.toUnsignedString(s.marker().throughLsn()) + ": " + e.getMessage(), e);
    }
    return s.replayFromLsn();
  }
}
