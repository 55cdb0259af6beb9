package dev.objlog.read;

import dev.objlog.ObjlogException;

/**
 * A cursor position is beyond the partition's next LSN: the checkpoint claims records the
 * partition does not have (a different bucket, a restored catalog, or a bug). Terminal.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class CheckpointAheadException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  public CheckpointAheadException(String message) {
    super(message);
  }

  public CheckpointAheadException(String message, Throwable cause) {
    super(message, cause);
  }
}
