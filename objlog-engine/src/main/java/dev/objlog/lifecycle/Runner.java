package dev.objlog.lifecycle;

/**
 * Runs one pass of a task; {@link Reclaimer} is the runner a {@link Scheduler} normally drives.
 *
 * <p>Thread-safety: implementations must be safe for concurrent use on different partitions.
 */
@FunctionalInterface
public interface Runner {
  /**
   * Runs one pass. Returning a result with {@link ReclaimResult#hasMore()} asks the scheduler for
   * a continuation; throwing counts as a failed attempt.
   */
  ReclaimResult run(Task task);
}
