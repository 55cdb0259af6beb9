package dev.objlog.spring.coordination;

import dev.objlog.coordination.PartitionSharing;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Logs what a {@link PartitionSharing} reports, under the logger {@code
 * dev.objlog.spring.coordination.PartitionSharing}: joins, hand-overs and takes at INFO, failed
 * renewals and lost leases at WARN.
 *
 * <p>Thread-safety: stateless.
 */
public final class LoggingReporter implements PartitionSharing.Reporter {
  /** The logger's name. */
  public static final String LOGGER = "dev.objlog.spring.coordination.PartitionSharing";
  /** The one instance. */
  public static final LoggingReporter INSTANCE = new LoggingReporter();

  private static final Log logger = LogFactory.getLog(LOGGER);

  private LoggingReporter() {}

  @Override
  public void info(String message) {
    logger.info(message);
  }

  @Override
  public void warn(String message, @Nullable Throwable cause) {
    if (cause == null) {
      logger.warn(message);
    } else {
      logger.warn(message, cause);
    }
  }
}
