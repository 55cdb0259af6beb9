package dev.objlog;

/**
 * Bytes read from the bucket (or handed to a decoder) break a rule of their format: wrong magic,
 * a size that does not add up, a reserved byte that is not zero, a range that is not contiguous.
 * Terminal for that object: retrying the same bytes fails the same way.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class CorruptObjectException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  public CorruptObjectException(String message) {
    super(message);
  }

  public CorruptObjectException(String message, Throwable cause) {
    super(message, cause);
  }
}
