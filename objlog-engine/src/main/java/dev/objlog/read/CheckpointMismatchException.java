package dev.objlog.read;

import dev.objlog.ObjlogException;

/**
 * A cursor checkpoint belongs to another stream or partition than the reader resuming it.
 * Terminal for that reader and checkpoint.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class CheckpointMismatchException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  public CheckpointMismatchException(String message) {
    super(message);
  }

  public CheckpointMismatchException(String message, Throwable cause) {
    super(message, cause);
  }
}
