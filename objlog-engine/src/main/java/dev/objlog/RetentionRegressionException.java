package dev.objlog;

/**
 * A retention request would move retention backwards: its policy version is not above the one
 * already requested or applied, or its {@code beforeLsn} is below the one already requested or
 * applied (FORMAT.md §2.10, §2.13). Retention only ever advances. Nothing was written; ask again
 * with a higher policy version and an LSN at or above the current one.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class RetentionRegressionException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  private final long currentPolicyVersion;
  private final long currentBeforeLsn;

  public RetentionRegressionException(String message, long currentPolicyVersion, long currentBeforeLsn) {
    super(message);
    this.currentPolicyVersion = currentPolicyVersion;
    this.currentBeforeLsn = currentBeforeLsn;
  }

  /** The policy version already in force (u64). */
  public long currentPolicyVersion() {
    return currentPolicyVersion;
  }

  /** The before-LSN already in force (u64). */
  public long currentBeforeLsn() {
    return currentBeforeLsn;
  }
}
