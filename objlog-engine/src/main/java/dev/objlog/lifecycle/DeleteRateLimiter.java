package dev.objlog.lifecycle;

/**
 * Bounds how fast reclaimers delete, to stay under a provider's request-rate limits or to leave
 * capacity for the log's own traffic. Share one instance between reclaimers to bound their sum.
 *
 * <p>Thread-safety: implementations must be safe for concurrent use.
 */
@FunctionalInterface
public interface DeleteRateLimiter {
  /** A limiter that never waits. */
  DeleteRateLimiter UNLIMITED = objects -> {};

  /**
   * Waits until {@code objects} deletes may start.
   *
   * @throws InterruptedException if interrupted while waiting; nothing was deleted
   */
  void acquire(int objects) throws InterruptedException;
}
