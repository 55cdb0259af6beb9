package dev.objlog.spring.listener;

import java.util.Objects;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.FixedBackOff;

/**
 * Retries with a {@link BackOff} (default: 3 retries, 1 second apart; the auto-configured one
 * follows {@code objlog.listener.back-off.*}), then hands the records to a {@link
 * ListenerRecoverer} when there is one. Failures no retry can cure ({@link
 * ListenerRetries#isRetryable}: a payload that does not convert or does not validate) go to the
 * recoverer at once. Without a recoverer, or when the recoverer fails, it logs the failure at
 * ERROR and stops the partition.
 *
 * <p>Thread-safety: immutable; safe for concurrent use when the recoverer is.
 */
public final class DefaultListenerErrorHandler implements ListenerErrorHandler {
  private static final Log logger = LogFactory.getLog(DefaultListenerErrorHandler.class);

  private final BackOff backOff;
  private final @Nullable ListenerRecoverer recoverer;

  public DefaultListenerErrorHandler() {
    this(new FixedBackOff(1000, 3), null);
  }

  public DefaultListenerErrorHandler(BackOff backOff, @Nullable ListenerRecoverer recoverer) {
    this.backOff = Objects.requireNonNull(backOff, "backOff");
    this.recoverer = recoverer;
  }

  @Override
  public boolean handle(FailedDelivery delivery) throws InterruptedException {
    if (ListenerRetries.retry(delivery, backOff, ListenerRetries::isRetryable)) {
      return true;
    }
    return !delivery.isStopping() && recover(delivery.toFailure());
  }

  /** @deprecated see {@link ListenerErrorHandler#backOff()} */
  @Deprecated(since = "0.1.0")
  @Override
  public BackOff backOff() {
    return backOff;
  }

  /** @deprecated see {@link ListenerErrorHandler#handleExhausted} */
  @Deprecated(since = "0.1.0")
  @Override
  public boolean handleExhausted(ListenerFailure failure) {
    return recover(failure);
  }

  private boolean recover(ListenerFailure failure) {
    String where = failure.listenerId() + " on " + failure.streamName() + "/" + failure.partition() + " at LSN "
        + (failure.records().isEmpty() ? "?" : Long.toUnsignedString(failure.records().get(0).lsn()));
    String after = ListenerRetries.isRetryable(failure.cause()) ? " failed after " + failure.attempts() + " attempts"
        : " failed (not retryable: " + failure.cause().getClass().getSimpleName() + ")";
    if (recoverer == null) {
      logger.error("Listener " + where + after
          + "; stopping the partition (its checkpoint stays before the record)", failure.cause());
      return false;
    }
    try {
      recoverer.recover(failure);
      logger.warn("Listener " + where + after + "; recovered by " + recoverer + ": " + failure.cause());
      return true;
    } catch (Exception e) {
      e.addSuppressed(failure.cause());
      logger.error("Listener " + where + after + " and the recoverer failed too; stopping the partition", e);
      return false;
    }
  }
}
