package dev.objlog.spring.listener;

/**
 * Thrown by a batch listener to point at the element that failed: the records before it count as
 * processed (and are checkpointed as the mode says), retries start at it, and after the retries
 * only that element goes to the recoverer.
 */
public class BatchListenerFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int index;

  public BatchListenerFailedException(String message, Throwable cause, int index) {
    super(message, cause);
    if (index < 0) {
      throw new IllegalArgumentException("index must not be negative");
    }
    this.index = index;
  }

  public BatchListenerFailedException(String message, int index) {
    super(message);
    if (index < 0) {
      throw new IllegalArgumentException("index must not be negative");
    }
    this.index = index;
  }

  /** The failing element's index in the list the method received. */
  public int index() {
    return index;
  }
}
