package dev.objlog.spring.listener;

import dev.objlog.spring.lifecycle.ConsumerRetentionGate;
import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import dev.objlog.spring.listener.checkpoint.StoredCheckpoint;
import dev.objlog.lifecycle.ConsumerFloors;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Consumer-gated retention from listener checkpoints: a partition may be trimmed only below the
 * smallest position any of the named groups has checkpointed. A group without a checkpoint for the
 * partition holds everything back, because it may still start from the earliest record.
 *
 * <p>With a listener registry, the checkpoint owner of every registered container of a stream is
 * one of its {@link #registeredGroups}, so until-consumed retention waits for it without it being
 * listed in {@code consumer-groups}, wherever its checkpoints live (bucket, JDBC, memory). That
 * includes containers that are stopped, paused or not started yet: a stopped listener holds at its
 * last checkpoint, and one that never checkpointed a partition holds all of it (at 0), because
 * whatever its start position says then, it has applied nothing that may be trimmed.
 *
 * <p>Thread-safety: safe for concurrent use when the repository is.
 */
public final class CheckpointRetentionGate implements ConsumerRetentionGate {
  private final CheckpointRepository checkpoints;
  private final @Nullable ObjlogListenerEndpointRegistry listeners;

  /** A gate of the configured consumer groups only. */
  public CheckpointRetentionGate(CheckpointRepository checkpoints) {
    this(checkpoints, null);
  }

  /**
   * @param listeners whose containers' groups count as registered consumers of their stream (read
   *     on every call, so containers registered later count too); null: none
   */
  public CheckpointRetentionGate(CheckpointRepository checkpoints, @Nullable ObjlogListenerEndpointRegistry listeners) {
    this.checkpoints = Objects.requireNonNull(checkpoints, "checkpoints");
    this.listeners = listeners;
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

  /** The checkpoint owners of the registry's containers of the stream assigned the partition, each once. */
  @Override
  public List<String> registeredGroups(String streamName, int partition) {
    if (listeners == null) {
      return List.of();
    }
    Set<String> groups = new LinkedHashSet<>();
    for (ObjlogListenerContainer container : listeners.getListenerContainers()) {
      if (container.getStreamName().equals(streamName) && container.getAssignedPartitions().contains(partition)) {
        groups.add(container.getCheckpointOwner());
      }
    }
    return List.copyOf(groups);
  }
}
