package dev.objlog;

/**
 * {@link Objlog#commitStatus} cannot decide whether a record is in the log: it stays
 * indeterminate, as the {@link CommitIndeterminateException} this extends says. {@link #reason()}
 * tells what the caller must do before asking again.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class CommitUndecidableException extends CommitIndeterminateException {
  private static final long serialVersionUID = 1L;

  /** Why the answer cannot be given. */
  public enum Reason {
    /**
     * The writer epoch that accepted the record still owns the partition, so a head swap of it
     * that is still on its way could yet land. Open a writer of the partition ({@link
     * Objlog#openWriter}, which takes it over), or wait until another process did, then ask again.
     */
    NOT_TAKEN_OVER,
    /**
     * Retention has trimmed the record's range from the catalog, which therefore no longer says
     * which writer committed it. This stays so: the answer is lost.
     */
    TRIMMED_BY_RETENTION
  }

  private final Reason reason;
  private final int partition;
  private final long writerEpoch;
  private final long lsn;

  /**
   * @param partition the record's partition (u32)
   * @param writerEpoch the epoch of the writer that accepted it (u64)
   * @param lsn the record's LSN (u64)
   */
  public CommitUndecidableException(String message, Reason reason, int partition, long writerEpoch,
      long lsn) {
    super(message);
    this.reason = java.util.Objects.requireNonNull(reason, "reason");
    this.partition = partition;
    this.writerEpoch = writerEpoch;
    this.lsn = lsn;
  }

  public Reason reason() {
    return reason;
  }

  /** The partition of the first record that could not be decided (u32). */
  public int partition() {
    return partition;
  }

  /** The epoch of the writer that accepted that record (u64). */
  public long writerEpoch() {
    return writerEpoch;
  }

  /** The LSN of that record (u64). */
  public long lsn() {
    return lsn;
  }
}
