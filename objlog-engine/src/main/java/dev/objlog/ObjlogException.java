package dev.objlog;

/**
 * Root of every failure objlog reports. Unchecked, so callers choose where to handle it; the typed
 * subclasses say whether a retry can help.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class ObjlogException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ObjlogException(String message) {
    super(message);
  }

  public ObjlogException(String message, Throwable cause) {
    super(message, cause);
  }
}
