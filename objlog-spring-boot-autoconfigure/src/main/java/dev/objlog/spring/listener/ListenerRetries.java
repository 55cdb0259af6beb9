package dev.objlog.spring.listener;

import dev.objlog.spring.core.ObjlogConversionException;
import java.util.function.Predicate;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.core.convert.ConversionException;
import org.springframework.messaging.converter.MessageConversionException;
import org.springframework.messaging.handler.invocation.MethodArgumentResolutionException;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.BackOffExecution;

/**
 * The retry loop of {@link ListenerErrorHandler}s: retries a {@link FailedDelivery} after each
 * interval of a {@link BackOff} while the failure is retryable, and the classification of
 * failures no retry can cure.
 *
 * <p>Thread-safety: stateless.
 */
public final class ListenerRetries {
  private static final Log logger = LogFactory.getLog(ObjlogListenerContainer.class);

  private ListenerRetries() {}

  /**
   * Whether a retry could succeed: false for failures to turn the record into the method's
   * arguments, which the same record fails again: {@code MessageConversionException} (a payload
   * that does not convert), {@code MethodArgumentResolutionException} (among them {@code
   * MethodArgumentNotValidException}, a payload the validator rejects, and a missing required
   * header), {@link ObjlogConversionException} and Spring's {@code ConversionException} (a header
   * that does not convert). Everything else is retryable.
   */
  public static boolean isRetryable(Throwable failure) {
    return !(failure instanceof MessageConversionException || failure instanceof MethodArgumentResolutionException
        || failure instanceof ObjlogConversionException || failure instanceof ConversionException);
  }

  /**
   * Retries after each interval of a fresh execution of {@code backOff} (started again when a
   * batch listener pointed further into its batch) while {@code retryable} accepts the last
   * failure.
   *
   * @return true when a retry processed the records; false when the back-off ran out, the failure
   *     is not retryable or the partition is stopping ({@link FailedDelivery#isStopping()})
   */
  public static boolean retry(FailedDelivery delivery, BackOff backOff, Predicate<? super Exception> retryable)
      throws InterruptedException {
    BackOffExecution execution = backOff.start();
    while (!delivery.isStopping() && retryable.test(delivery.cause())) {
      long wait = execution.nextBackOff();
      if (wait == BackOffExecution.STOP) {
        return false;
      }
      if (logger.isDebugEnabled()) {
        logger.debug("Listener " + delivery.listenerId() + " on " + delivery.streamName() + "/"
            + Integer.toUnsignedString(delivery.partition()) + " failed (attempt " + delivery.attempts()
            + "); retrying in " + wait + " ms", delivery.cause());
      }
      if (!delivery.backOff(wait)) {
        return false;
      }
      if (delivery.retry()) {
        return true;
      }
      if (delivery.attempts() == 1) {
        execution = backOff.start(); // the batch moved on: the pointed element gets every retry
      }
    }
    return false;
  }
}
