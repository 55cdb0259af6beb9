package dev.objlog.store;

/**
 * The key holds no object. Terminal for that read: the object may appear later only if somebody
 * writes it.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class ObjectNotFoundException extends StoreException {
  private static final long serialVersionUID = 1L;

  public ObjectNotFoundException(String message) {
    super(message);
  }

  public ObjectNotFoundException(String message, Throwable cause) {
    super(message, cause);
  }
}
