package dev.objlog.read;

import dev.objlog.ObjlogException;

/**
 * A blocked or later {@code Tailer.next} found its watch (or the tailer itself) closed.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class WatchClosedException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  public WatchClosedException(String message) {
    super(message);
  }

  public WatchClosedException(String message, Throwable cause) {
    super(message, cause);
  }
}
