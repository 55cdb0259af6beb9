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
   */
  default List<ConsumerFloors.ConsumerFloor> floors(String streamName, int partition, List<String> groups) {
    return List.of(new ConsumerFloors.ConsumerFloor(String.join(",", groups), partition,
        retainableBefore(streamName, partition, groups)));
  }
}
