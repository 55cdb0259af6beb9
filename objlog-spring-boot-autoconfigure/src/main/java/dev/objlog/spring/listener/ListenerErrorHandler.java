package dev.objlog.spring.listener;

import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.FixedBackOff;

/**
 * What a container does when a listener method throws, as spring-kafka's error handlers decide:
 * the container hands the {@link FailedDelivery} to {@link #handle}, which may wait and retry
 * (usually with {@link ListenerRetries}) and then says whether the records are dealt with ({@code
 * true}: processed by a retry, or recovered, so they count as processed and are checkpointed) or
 * not ({@code false}: the partition stops, reports FAILED and makes the container not be in the
 * state it was asked to be in). A record is never skipped silently.
 *
 * <p>Implementations written before {@link #handle} (with {@link #backOff()} and {@link
 * #handleExhausted}) keep working through its default: retries after each back-off interval,
 * except for failures {@link ListenerRetries#isRetryable not retryable}, then {@code
 * handleExhausted}.
 *
 * <p>Thread-safety: shared by the partitions of a container; implementations must be safe for
 * concurrent use.
 */
public interface ListenerErrorHandler {

  /**
   * Decides about a failed delivery, retrying it as it sees fit.
   *
   * @return true: the records are processed or recovered, move past them; false: stop the
   *     partition (ignored when the partition is stopping anyway)
   * @throws InterruptedException when interrupted while waiting; the partition stops
   */
  default boolean handle(FailedDelivery delivery) throws InterruptedException {
    if (ListenerRetries.retry(delivery, backOff(), ListenerRetries::isRetryable)) {
      return true;
    }
    return !delivery.isStopping() && handleExhausted(delivery.toFailure());
  }

  /**
   * The retry intervals; a fresh execution is started for every failing record.
   *
   * @deprecated implement {@link #handle} instead; called only by its default
   */
  @Deprecated(since = "0.1.0")
  default BackOff backOff() {
    return new FixedBackOff(0, 0);
  }

  /**
   * Called when the retries ran out.
   *
   * @return whether the records were recovered (move past them) or not (stop the partition)
   * @deprecated implement {@link #handle} instead; called only by its default
   */
  @Deprecated(since = "0.1.0")
  default boolean handleExhausted(ListenerFailure failure) {
    return false;
  }
}
