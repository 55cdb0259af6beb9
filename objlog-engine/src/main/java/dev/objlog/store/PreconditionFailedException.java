package dev.objlog.store;

/**
 * A conditional request's condition did not hold (the key exists for a create-only write, or the
 * token differs for a compare-and-swap). The store SPI turns this into {@link CreateResult} and
 * {@link CasResult} answers; adapters use it between their transport and that translation.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class PreconditionFailedException extends StoreException {
  private static final long serialVersionUID = 1L;

  public PreconditionFailedException(String message) {
    super(message);
  }

  public PreconditionFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
