package dev.objlog;

import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A consistent snapshot of one {@link PartitionWriter}.
 *
 * <p>Thread-safety: immutable.
 *
 * @param committed the head of this writer's last commit (its takeover head before the first)
 * @param nextLsn the LSN the next accepted record gets (optimistic: accepted records need not be
 *     committed yet); unsigned 64-bit
 * @param bufferedRecords records in the batch being built (not yet cut)
 * @param inflightSegments segments cut but not yet committed
 * @param inflightBytes worst-case size of those segments, in bytes
 * @param closed whether the writer stopped accepting records (closed, aborted or failed)
 * @param failure the first terminal failure, or null
 */
public record WriterState(
    PartitionHead committed,
    long nextLsn,
    long bufferedRecords,
    int inflightSegments,
    long inflightBytes,
    boolean closed,
    @Nullable ObjlogException failure) {

  public WriterState {
    Objects.requireNonNull(committed, "committed");
  }

  public Optional<ObjlogException> failureIfAny() {
    return Optional.ofNullable(failure);
  }

  @Override
  public String toString() {
    return "WriterState[committed next " + Long.toUnsignedString(committed.nextLsn()) + ", next "
        + Long.toUnsignedString(nextLsn) + ", buffered " + bufferedRecords + ", inflight "
        + inflightSegments + " (" + inflightBytes + " bytes)" + (closed ? ", closed" : "")
        + (failure != null ? ", failed: " + failure : "") + "]";
  }
}
