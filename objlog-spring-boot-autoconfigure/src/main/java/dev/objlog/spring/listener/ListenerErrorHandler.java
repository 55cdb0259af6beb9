package dev.objlog.spring.listener;

import org.springframework.util.backoff.BackOff;

/**
 * What a container does when a listener method throws: retry the same record (or batch remainder)
 * after each interval of {@link #backOff()}, then, when the back-off says stop, ask {@link
 * #handleExhausted}: {@code true} moves past the records (they count as processed and are
 * checkpointed), {@code false} stops the partition, which then reports FAILED and makes the
 * container not be in the state it was asked to be in. A record is never skipped silently.
 *
 * <p>Thread-safety: shared by the partitions of a container; implementations must be safe for
 * concurrent use.
 */
public interface ListenerErrorHandler {

  /** The retry intervals; a fresh execution is started for every failing record. */
  BackOff backOff();

  /**
   * Called when the retries ran out.
   *
   * @return whether the records were recovered (move past them) or not (stop the partition)
   */
  boolean handleExhausted(ListenerFailure failure);
}
