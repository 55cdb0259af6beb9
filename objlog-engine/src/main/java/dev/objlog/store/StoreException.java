package dev.objlog.store;

import dev.objlog.ObjlogException;/**
 * A request to the object store failed. The subclass says whether retrying can help and whether
 * the request may have taken effect.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class StoreException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  public StoreException(String message) {
    super(message);
  }

  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
