package dev.objlog.read;

import dev.objlog.ObjlogException;

/**
 * A cursor checkpoint cannot be used: its JSON is malformed, or its version is not one this
 * library understands. Terminal for that checkpoint.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class CheckpointInvalidException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  public CheckpointInvalidException(String message) {
    super(message);
  }

  public CheckpointInvalidException(String message, Throwable cause) {
    super(message, cause);
  }
}
