package dev.objlog;

/**
 * Whether a record a writer accepted is in the log, as {@link Objlog#commitStatus} decides it once
 * no writer of the record's epoch can commit anything more.
 *
 * <p>Thread-safety: immutable.
 */
public enum CommitStatus {
  /** The record is in the log at its LSN (or was, if retention has trimmed it since). */
  COMMITTED,
  /**
   * The record is not in the log and never will be: its writer can no longer commit. Appending it
   * again does not duplicate it.
   */
  NOT_COMMITTED
}
