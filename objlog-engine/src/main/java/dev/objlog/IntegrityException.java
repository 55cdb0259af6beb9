package dev.objlog;

/**
 * A checksum over stored bytes does not match the value recorded beside them, or an object does
 * not match the reference that led to it. The bytes are structurally plausible but not the ones
 * that were written.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class IntegrityException extends CorruptObjectException {
  private static final long serialVersionUID = 1L;

  public IntegrityException(String message) {
    super(message);
  }
}
