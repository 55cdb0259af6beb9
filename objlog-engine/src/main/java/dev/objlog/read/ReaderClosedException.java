package dev.objlog.read;

import dev.objlog.ObjlogException;

/**
 * The reader (or the cursor used) is closed; open a new one to continue.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class ReaderClosedException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  public ReaderClosedException(String message) {
    super(message);
  }

  public ReaderClosedException(String message, Throwable cause) {
    super(message, cause);
  }
}
