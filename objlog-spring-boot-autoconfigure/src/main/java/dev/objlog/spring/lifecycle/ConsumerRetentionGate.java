package dev.objlog.spring.lifecycle;

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
}
