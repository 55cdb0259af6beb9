package dev.objlog.spring.listener;

import dev.objlog.LsnExpiredException;
import dev.objlog.PartitionHead;
import dev.objlog.read.CheckpointAheadException;
import dev.objlog.read.CheckpointMismatchException;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.read.ReadResult;
import dev.objlog.spring.listener.checkpoint.CheckpointKey;
import java.util.Objects;

/**
 * Where one partition of a listener starts reading: at its stored checkpoint once the checkpoint is
 * checked against the stream, or afresh at a {@link StartPosition} (the configured one, or the one
 * a checkpoint error outcome names). What to do when a checkpoint cannot be used is the partition
 * consumer's decision, not this class's.
 *
 * <p>Thread-safety: immutable; each call reads the store through the container's reader.
 */
final class StartPositionResolver {
  private final ObjlogListenerContainer.Settings settings;
  private final int partition;
  private final CheckpointKey key;

  StartPositionResolver(ObjlogListenerContainer.Settings settings, int partition, CheckpointKey key) {
    this.settings = settings;
    this.partition = partition;
    this.key = key;
  }

  /**
   * Checks that {@code checkpoint} is of this stream and that the partition can be read from it.
   *
   * @throws CheckpointMismatchException, LsnExpiredException, CheckpointAheadException when it
   *     cannot be used
   */
  void checkResumable(CursorCheckpoint checkpoint) {
    if (!checkpoint.streamId().equals(settings.stream().streamId())) {
      throw new CheckpointMismatchException("checkpoint of stream id " + checkpoint.streamId() + ", not "
          + settings.stream().streamId());
    }
    settings.reader().partition(partition).resume(checkpoint, 1);
  }

  /**
   * The LSN {@code position} names in the partition whose head is {@code head}.
   *
   * @param why why the partition starts afresh, for messages
   */
  long resolve(StartPosition position, PartitionHead head, String why) {
    if (position instanceof StartPosition.Snapshot) {
      return Objects.requireNonNull(settings.snapshotStart(), "snapshot start")
          .start(settings.endpoint().getCheckpointOwner(), settings.stream().name(), head,
              "listener " + key + ": " + why);
    }
    if (position instanceof StartPosition.Earliest) {
      return head.oldestLsn();
    }
    if (position instanceof StartPosition.Latest) {
      return head.nextLsn();
    }
    if (position instanceof StartPosition.Lsn lsn) {
      return Long.compareUnsigned(lsn.lsn(), head.oldestLsn()) < 0 ? head.oldestLsn()
          : Long.compareUnsigned(lsn.lsn(), head.nextLsn()) > 0 ? head.nextLsn() : lsn.lsn();
    }
    StartPosition.Timestamp ts = (StartPosition.Timestamp) position;
    ReadResult r = settings.reader().partition(partition).readFromTimestamp(ts.instant().toEpochMilli(), 1);
    return r.records().isEmpty() ? r.nextLsn() : r.records().get(0).lsn();
  }

  /** Where a checkpoint error outcome other than FAIL restarts the partition. */
  static StartPosition restartPosition(CheckpointErrorOutcome outcome) {
    return switch (outcome) {
      case EARLIEST -> new StartPosition.Earliest();
      case SNAPSHOT -> new StartPosition.Snapshot();
      default -> new StartPosition.Latest();
    };
  }
}
