package dev.objlog.spring.lifecycle;

import dev.objlog.lifecycle.ConsumerFloors;
import java.util.List;

/**
 * Where consumer groups are in each partition, so that retention never trims records a group has
 * not consumed yet ({@code objlog.streams.<name>.retention.consumer-groups}). The lifecycle
 * schedule uses the application's bean of this type; the {@code @ObjlogListener} support provides
 * one from its checkpoints. Without a bean, configured consumer groups are ignored (with a
 * warning at startup).
 *
 * <p>For until-consumed retention the consumers are the configured groups plus the groups the
 * gate itself knows to consume the stream ({@link #registeredGroups}): the listener checkpoints'
 * gate names every registered {@code @ObjlogListener} container of the stream, so a listener holds
 * retention back without being listed.
 *
 * <p>Thread-safety: implementations must be safe for concurrent use.
 */
@FunctionalInterface
public interface ConsumerRetentionGate {

  /**
   * The LSN below which every one of {@code groups} is done with {@code partition} of the stream
   * (u64): records at and above it are kept. Return 0 to keep everything (for example for a group
   * with no checkpoint yet) and {@code -1L} (2^64−1) to hold nothing back.
   *
   * @param streamName the configured stream name
   * @param groups the configured consumer groups, never empty
   */
  long retainableBefore(String streamName, int partition, List<String> groups);

  /**
   * Each group's applied floor of {@code partition}, for until-consumed retention ({@code
   * objlog.streams.<name>.retention.until-consumed}). The default reports the groups together as
   * one consumer at {@link #retainableBefore}; the listener checkpoints' gate reports each group.
   *
   * @param groups the configured consumer groups and the {@link #registeredGroups}, never empty
   */
  default List<ConsumerFloors.ConsumerFloor> floors(String streamName, int partition, List<String> groups) {
    return List.of(new ConsumerFloors.ConsumerFloor(String.join(",", groups), partition,
        retainableBefore(streamName, partition, groups)));
  }

  /**
   * The groups this application consumes {@code partition} of the stream with, which until-consumed
   * retention counts as registered consumers in addition to the configured {@code consumer-groups}
   * (whether they are running or not: a stopped consumer still holds retention back). The default
   * knows of none; the listener checkpoints' gate returns the checkpoint owner of every listener
   * container of the stream that is assigned the partition.
   *
   * @param streamName the configured stream name
   */
  default List<String> registeredGroups(String streamName, int partition) {
    return List.of();
  }
}
