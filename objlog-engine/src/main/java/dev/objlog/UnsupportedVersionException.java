package dev.objlog;

/**
 * An object declares a format version, codec, hash algorithm or layout this build does not know.
 * Upgrading objlog may help; retrying does not.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class UnsupportedVersionException extends CorruptObjectException {
  private static final long serialVersionUID = 1L;

  public UnsupportedVersionException(String message) {
    super(message);
  }
}
