package dev.objlog.lifecycle;

import java.util.Objects;

/**
 * One unit of scheduled maintenance: an operation on one partition.
 *
 * <p>Thread-safety: immutable.
 */
public record Task(int partition, Operation operation) {
  public Task {
    Objects.requireNonNull(operation, "operation");
  }

  public static Task reclaim(int partition) {
    return new Task(partition, Operation.RECLAIM);
  }

  public static Task scrub(int partition) {
    return new Task(partition, Operation.SCRUB);
  }

  @Override
  public String toString() {
    return operation.name().toLowerCase(java.util.Locale.ROOT) + "/" + Integer.toUnsignedString(partition);
  }
}
