package dev.objlog.replica;

import dev.objlog.Objlog;
import dev.objlog.PartitionHead;
import dev.objlog.SnapshotMarker;
import java.util.Objects;
import java.util.Optional;

/**
 * Finds the snapshot a consumer starts from when the log alone cannot give it the state (no
 * cursor, or a cursor below the retention floor): the newest marker, checked against the head, and
 * its payload. The {@link Replica} uses it, and so does the Spring listener's snapshot start.
 *
 * <p>Thread-safety: stateless.
 */
public final class SnapshotBootstrap {
  private SnapshotBootstrap() {}

  /**
   * A loaded snapshot: the marker and the payload it names.
   *
   * <p>Thread-safety: immutable (the payload array is the caller's to keep).
   */
  public record Loaded(SnapshotMarker marker, byte[] payload) {
    public Loaded {
      Objects.requireNonNull(marker, "marker");
      Objects.requireNonNull(payload, "payload");
    }

    /** Where tailing continues: {@link SnapshotMarker#replayFromLsn()}. */
    public long replayFromLsn() {
      return marker.replayFromLsn();
    }
  }

  /**
   * The newest snapshot of {@code partition}, if one was published, as long as replaying from it
   * is still possible against {@code head}.
   *
   * @param why why the caller needs a snapshot, for the message when none is usable
   * @throws ReplicaBootstrapException if the snapshot is older than the retention floor
   * @throws SnapshotMissingException if the marker's payload is not in {@code snapshots}
   */
  public static Optional<Loaded> latest(Objlog log, SnapshotStore snapshots, int partition,
      PartitionHead head, String why) {
    Optional<SnapshotMarker> found = log.latestSnapshot(partition);
    if (found.isEmpty()) {
      return Optional.empty();
    }
    SnapshotMarker marker = found.get();
    if (Long.compareUnsigned(marker.replayFromLsn(), head.oldestLsn()) < 0) {
      throw new ReplicaBootstrapException(why + ", and the newest snapshot (through LSN "
          + Long.toUnsignedString(marker.throughLsn()) + ") is older than the retention floor "
          + Long.toUnsignedString(head.oldestLsn()) + " of partition " + Integer.toUnsignedString(partition)
          + ": gate retention with Objlog.snapshotGate() and publish a new snapshot");
    }
    return Optional.of(new Loaded(marker, snapshots.read(marker.objectKey())));
  }

  /**
   * {@link #latest}, failing when there is none.
   *
   * @throws ReplicaBootstrapException if no snapshot was published or it is older than the floor
   */
  public static Loaded required(Objlog log, SnapshotStore snapshots, int partition, PartitionHead head,
      String why) {
    return latest(log, snapshots, partition, head, why).orElseThrow(() -> noSnapshot(partition, why));
  }

  /** The failure of a partition that needs a snapshot ({@code why}) and has none. */
  public static ReplicaBootstrapException noSnapshot(int partition, String why) {
    return new ReplicaBootstrapException(why + ", and partition " + Integer.toUnsignedString(partition)
        + " has no snapshot: publish one (SnapshotStore.publish) and gate retention with Objlog.snapshotGate()");
  }
}
