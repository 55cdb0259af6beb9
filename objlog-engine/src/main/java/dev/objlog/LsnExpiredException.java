package dev.objlog;

/**
 * A read asked for an LSN below the partition's retention floor: those records were trimmed.
 * Restart from {@link #oldestLsn()} (or from a snapshot) to continue.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class LsnExpiredException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  private final long requestedLsn;
  private final long oldestLsn;
  private final long nextLsn;

  public LsnExpiredException(long requestedLsn, long oldestLsn, long nextLsn) {
    super("LSN " + Long.toUnsignedString(requestedLsn) + " is below the retention floor: the partition holds ["
        + Long.toUnsignedString(oldestLsn) + ", " + Long.toUnsignedString(nextLsn) + ")");
    this.requestedLsn = requestedLsn;
    this.oldestLsn = oldestLsn;
    this.nextLsn = nextLsn;
  }

  /** The LSN that was asked for (unsigned). */
  public long requestedLsn() {
    return requestedLsn;
  }

  /** The oldest LSN still readable (unsigned). */
  public long oldestLsn() {
    return oldestLsn;
  }

  /** The LSN the next appended record will get (unsigned). */
  public long nextLsn() {
    return nextLsn;
  }
}
