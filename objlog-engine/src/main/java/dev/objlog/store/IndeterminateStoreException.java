package dev.objlog.store;

/**
 * A write may or may not have taken effect: the request was sent but no answer came back (a
 * timeout or a dropped connection after the body went out), and the adapter's retries did not
 * settle it. Callers reconcile by reading the object and comparing it with what they wrote; they
 * must never assume either outcome.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class IndeterminateStoreException extends StoreException {
  private static final long serialVersionUID = 1L;

  public IndeterminateStoreException(String message) {
    super(message);
  }

  public IndeterminateStoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
