package dev.objlog;

/**
 * The writer was aborted ({@link PartitionWriter#abort()}): records accepted but not committed
 * were dropped. Segments already uploaded stay in the bucket unreferenced, for scrub to remove.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class WriterAbortedException extends WriterClosedException {
  private static final long serialVersionUID = 1L;

  public WriterAbortedException(String message) {
    super(message);
  }
}
