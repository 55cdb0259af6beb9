package dev.objlog;

import java.time.Duration;
import java.util.Objects;

/**
 * A writer kept failing to upload or to commit a segment for longer than its deadline ({@link
 * WriterOptions.Timeouts}), measured on elapsed time ({@link dev.objlog.store.Ticker}), and gave
 * up. Terminal for the writer: the segment was <b>not</b> committed (the writer only gives up on a
 * commit it knows did not land; an unknown outcome is a {@link CommitIndeterminateException}), and
 * every record not yet committed fails with this cause. The cause chain ends in the store's last
 * error. Open a new writer to continue; raise the timeout if the store is slow rather than down.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class WriterDeadlineExceededException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  /** Which of the writer's deadlines passed. */
  public enum Deadline {
    /** {@link WriterOptions.Timeouts#segmentFinalize}: sealing and uploading one segment. */
    SEGMENT_FINALIZE,
    /** {@link WriterOptions.Timeouts#catalogPublish}: committing one group to the catalog. */
    CATALOG_PUBLISH
  }

  private final Deadline deadline;
  private final Duration limit;
  private final Duration elapsed;

  public WriterDeadlineExceededException(String message, Deadline deadline, Duration limit,
      Duration elapsed, Throwable cause) {
    super(message, cause);
    this.deadline = Objects.requireNonNull(deadline, "deadline");
    this.limit = Objects.requireNonNull(limit, "limit");
    this.elapsed = Objects.requireNonNull(elapsed, "elapsed");
  }

  /** Which deadline passed. */
  public Deadline deadline() {
    return deadline;
  }

  /** The configured deadline. */
  public Duration limit() {
    return limit;
  }

  /** Elapsed time from the start of the deadline (the cut, or the group's first commit try) to giving up. */
  public Duration elapsed() {
    return elapsed;
  }
}
