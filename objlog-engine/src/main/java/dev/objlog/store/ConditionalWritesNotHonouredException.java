package dev.objlog.store;

/**
 * The store accepted a write whose condition should have failed: it ignores {@code If-None-Match}
 * or {@code If-Match} (some S3-compatible servers and gateways do). objlog's fencing depends on
 * those conditions, so such a store must not be used.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class ConditionalWritesNotHonouredException extends PermanentStoreException {
  private static final long serialVersionUID = 1L;

  public ConditionalWritesNotHonouredException(String message) {
    super(message);
  }
}
