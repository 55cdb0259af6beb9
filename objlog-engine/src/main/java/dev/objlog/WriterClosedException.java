package dev.objlog;

/**
 * The writer no longer accepts work: it was closed or aborted, or a terminal failure stopped it
 * (then {@link #getCause()} is that failure, also available from {@link
 * PartitionWriter#failure()}). The record or request was not accepted. Open a new writer to
 * continue.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class WriterClosedException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  public WriterClosedException(String message) {
    super(message);
  }

  public WriterClosedException(String message, Throwable cause) {
    super(message, cause);
  }
}
