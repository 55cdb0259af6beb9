package dev.objlog.spring.listener;

import java.util.Objects;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.FixedBackOff;

/**
 * Retries with a {@link BackOff} (default: 3 retries, 1 second apart), then hands the records to
 * a {@link ListenerRecoverer} when there is one. Without a recoverer, or when the recoverer fails,
 * it logs the failure at ERROR and stops the partition.
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
  public BackOff backOff() {
    return backOff;
  }

  @Override
  public boolean handleExhausted(ListenerFailure failure) {
    String where = failure.listenerId() + " on " + failure.streamName() + "/" + failure.partition() + " at LSN "
        + (failure.records().isEmpty() ? "?" : Long.toUnsignedString(failure.records().get(0).lsn()));
    if (recoverer == null) {
      logger.error("Listener " + where + " failed after " + failure.attempts()
          + " attempts; stopping the partition (its checkpoint stays before the record)", failure.cause());
      return false;
    }
    try {
      recoverer.recover(failure);
      logger.warn("Listener " + where + " failed after " + failure.attempts() + " attempts; recovered by "
          + recoverer + ": " + failure.cause());
      return true;
    } catch (Exception e) {
      e.addSuppressed(failure.cause());
      logger.error("Listener " + where + " failed after " + failure.attempts()
          + " attempts and the recoverer failed too; stopping the partition", e);
      return false;
    }
  }
}
