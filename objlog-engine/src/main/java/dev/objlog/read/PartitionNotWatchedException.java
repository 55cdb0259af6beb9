package dev.objlog.read;

import dev.objlog.ObjlogException;

/**
 * A partition is not (or no longer) registered with the watch a tailer belongs to.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class PartitionNotWatchedException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  public PartitionNotWatchedException(String message) {
    super(message);
  }

  public PartitionNotWatchedException(String message, Throwable cause) {
    super(message, cause);
  }
}
