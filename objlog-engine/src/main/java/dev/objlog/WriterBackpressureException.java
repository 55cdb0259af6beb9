package dev.objlog;

/**
 * The writer's pending budget is full and the caller chose not to wait (the writer is configured
 * to fail fast, or the waiting thread was interrupted, in which case the interrupt flag is set
 * again). The record or cut was not accepted and the writer stays usable: retry later.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class WriterBackpressureException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  public WriterBackpressureException(String message) {
    super(message);
  }
}
