package dev.objlog.store;

/**
 * The store refused the request for a reason retrying will not fix: bad credentials, a missing
 * bucket, a malformed key, a store that does not honour conditional writes. The message says what
 * to change.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class PermanentStoreException extends StoreException {
  private static final long serialVersionUID = 1L;

  public PermanentStoreException(String message) {
    super(message);
  }

  public PermanentStoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
