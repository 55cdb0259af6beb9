package dev.objlog;

/**
 * A single record is so large that a segment holding only it could never fit the writer's pending
 * budget ({@link WriterOptions.BackpressurePolicy#maxPendingBytes()}) or what the writer can ever
 * hold of its {@link MemoryBudget} (its reservation plus all that other writers have not reserved),
 * so waiting would never help. The record was not accepted and the writer stays usable; raise the
 * budget the message names or split the record.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class RecordExceedsPendingBudgetException extends InvalidArgumentException {
  private static final long serialVersionUID = 1L;

  public RecordExceedsPendingBudgetException(String message) {
    super(message);
  }
}
