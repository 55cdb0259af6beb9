package dev.objlog.store;

/**
 * A failure that may go away on retry: throttling, a 5xx answer, a reset connection, a timeout.
 * Adapters retry these themselves with backoff; one escapes only when the retry budget is spent.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class TransientStoreException extends StoreException {
  private static final long serialVersionUID = 1L;

  private final boolean mayHaveTakenEffect;

  /**
   * @param mayHaveTakenEffect whether the request could have reached the store and been applied
   *     (a timeout after sending, as opposed to a connection refused or a 503 answer)
   */
  public TransientStoreException(String message, boolean mayHaveTakenEffect, Throwable cause) {
    super(message, cause);
    this.mayHaveTakenEffect = mayHaveTakenEffect;
  }

  public TransientStoreException(String message, boolean mayHaveTakenEffect) {
    super(message);
    this.mayHaveTakenEffect = mayHaveTakenEffect;
  }

  public boolean mayHaveTakenEffect() {
    return mayHaveTakenEffect;
  }
}
