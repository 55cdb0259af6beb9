package dev.objlog.spring.listener;

import dev.objlog.spring.lifecycle.ConsumerRetentionGate;
import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import dev.objlog.spring.listener.checkpoint.StoredCheckpoint;
import dev.objlog.lifecycle.ConsumerFloors;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Consumer-gated retention from listener checkpoints: a partition may be trimmed only below the
 * smallest position any of the named groups has checkpointed. A group without a checkpoint for the
 * partition holds everything back, because it may still start from the earliest record.
 *
 * <p>Thread-safety: safe for concurrent use when the repository is.
 */
public final class CheckpointRetentionGate implements ConsumerRetentionGate {
  private final CheckpointRepository checkpoints;

  public CheckpointRetentionGate(CheckpointRepository checkpoints) {
    this.checkpoints = Objects.requireNonNull(checkpoints, "checkpoints");
  }

  @Override
  public long retainableBefore(String streamName, int partition, List<String> groups) {
    long floor = -1L;
    for (String group : groups) {
      Optional<StoredCheckpoint> stored = checkpoints.load(group, streamName, partition);
      if (stored.isEmpty()) {
        return 0;
      }
      long position = stored.get().checkpoint().nextLsn();
      if (Long.compareUnsigned(position, floor) < 0) {
        floor = position;
      }
    }
    return floor;
  }

  /** Each group's checkpointed position; a group without a checkpoint is at 0 (it holds everything). */
  @Override
  public List<ConsumerFloors.ConsumerFloor> floors(String streamName, int partition, List<String> groups) {
    List<ConsumerFloors.ConsumerFloor> out = new ArrayList<>();
    for (String group : groups) {
      long position = checkpoints.load(group, streamName, partition).map(s -> s.checkpoint().nextLsn()).orElse(0L);
      out.add(new ConsumerFloors.ConsumerFloor(group, partition, position));
    }
    return List.copyOf(out);
  }
}
