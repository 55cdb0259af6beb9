package dev.objlog.internal.writer;

import dev.objlog.WriterDeadlineExceededException;
import dev.objlog.internal.Elapsed;
import java.time.Duration;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The writer's one retry budget per operation, written down in one place: an operation that failed
 * in a way worth retrying is tried again after {@link #backoffMillis} until its deadline, measured
 * on elapsed time ({@link dev.objlog.store.Ticker} readings), has passed; then the writer gives up
 * with {@link WriterDeadlineExceededException}. The two deadlines are {@code
 * WriterOptions.Timeouts.segmentFinalize} (an upload, counted from the segment's cut) and {@code
 * catalogPublish} (a group commit, counted from when the publisher took the group).
 *
 * <p>Thread-safety: stateless.
 */
final class RetryBudget {
  private RetryBudget() {}

  /** The pause before try {@code attempt + 1}: 10 ms doubling per attempt, at most 1 s. */
  static long backoffMillis(int attempt) {
    return Math.min(1000L, 10L << Math.min(attempt - 1, 10));
  }

  /**
   * The failure to report if the deadline {@code limit} counted from {@code sinceNanos} has passed
   * at {@code nowNanos} (a reading exactly at the deadline has not), else null.
   *
   * @param message the error text, given the elapsed time
   * @param cause the last failure of the operation
   */
  static @Nullable WriterDeadlineExceededException check(WriterDeadlineExceededException.Deadline deadline,
      Duration limit, long sinceNanos, long nowNanos, Function<Duration, String> message, Throwable cause) {
    if (!Elapsed.exceeded(sinceNanos, nowNanos, limit)) {
      return null;
    }
    Duration elapsed = Duration.ofNanos(nowNanos - sinceNanos);
    return new WriterDeadlineExceededException(message.apply(elapsed), deadline, limit, elapsed, cause);
  }
}
