package dev.objlog.spring.core;

import dev.objlog.InvalidArgumentException;
import java.util.Objects;

/**
 * One configured stream: its name (how the Spring API, metrics and URLs refer to it), its
 * canonical stream id (what the bucket stores) and its partition count.
 *
 * <p>Thread-safety: immutable.
 *
 * @param name the configured name, {@code objlog.streams.<name>}
 * @param streamId the canonical stream id
 * @param partitions the number of partitions, at least 1
 */
public record ObjlogStream(String name, String streamId, int partitions) {
  public ObjlogStream {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(streamId, "streamId");
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be positive, was " + partitions);
    }
  }

  /** Throws {@link InvalidArgumentException} unless {@code partition} is one of the stream's. */
  void checkPartition(int partition) {
    if (partition < 0 || partition >= partitions) {
      throw new InvalidArgumentException("stream '" + name + "' has partitions 0-" + (partitions - 1)
          + ", not " + partition);
    }
  }
}
