package dev.objlog;

import java.util.Objects;

/**
 * Holds retention back so that it never trims what someone still needs: every consumer group
 * that has not applied the records yet (consumer-gated retention), or the newest application
 * snapshot ({@link Objlog#snapshotGate()}). The application supplies the gate; {@link
 * Objlog#requestRetention(int, long, long, RetentionGate)} lowers the requested {@code
 * beforeLsn} to {@link #retainableBefore(int)} when the request is made.
 *
 * <p>Because the retention mailbox is monotonic in both its policy version and its LSN, a gated
 * request that advances retention must use a new, higher policy version each time; a request the
 * gate holds at or below what is already requested writes nothing.
 *
 * <p>Thread-safety: implementations must be safe for concurrent use.
 */
@FunctionalInterface
public interface RetentionGate {

  /** A gate that holds nothing back. */
  RetentionGate NONE = partition -> -1L;

  /**
   * The LSN below which every record of {@code partition} may be trimmed (u64; records at and
   * above it are kept). Return 0 to keep everything, {@code -1L} (2^64−1) to hold nothing back.
   */
  long retainableBefore(int partition);

  /** A gate that holds back whatever either gate holds back (the lower LSN wins). */
  default RetentionGate and(RetentionGate other) {
    Objects.requireNonNull(other, "other");
    return partition -> {
      long a = retainableBefore(partition);
      long b = other.retainableBefore(partition);
      return Long.compareUnsigned(a, b) <= 0 ? a : b;
    };
  }

  /**
   * A registered hold on retention ({@link Objlog#holdRetention(int, long)} or {@link
   * Objlog#holdRetention(RetentionGate)}): while it is open, every {@code applyRetention} of the
   * log's writers trims nothing at or above what it holds, whoever wrote the request (this
   * library, the CLI or a Go process). Close it to release the hold.
   *
   * <p>Only writers of the same {@link Objlog} see a hold; a writer in another process (or a Go
   * writer) does not.
   *
   * <p>Thread-safety: safe for concurrent use.
   */
  interface Hold extends AutoCloseable {

    /**
     * Moves a fixed hold to {@code beforeLsn} (u64; records at and above it are kept). A hold
     * may move either way; retention already applied is never undone.
     *
     * @throws IllegalStateException for a hold of a gate, or after {@link #close()}
     */
    void moveTo(long beforeLsn);

    /** What this hold keeps of {@code partition}, as {@link RetentionGate#retainableBefore}. */
    long retainableBefore(int partition);

    /** Releases the hold; idempotent. */
    @Override
    void close();
  }
}
