package dev.objlog;

/**
 * Another writer has taken over the partition (its fence epoch is higher than this writer's).
 * Terminal for this writer: it never writes behind the new owner. Records accepted but not yet
 * committed are not in the log; open a new writer to continue.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class StaleWriterException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  public StaleWriterException(String message) {
    super(message);
  }
}
