package dev.objlog;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * What {@link PartitionWriter#append} returns once a record is accepted: its LSN, assigned at
 * once, and a future for its commit.
 *
 * <p>{@code committed} completes with the head of the commit that made the record durable and
 * readable (the head's next LSN is above {@code lsn}). It fails with the writer's terminal cause
 * ({@link StaleWriterException}, {@link CommitIndeterminateException}, {@link
 * WriterAbortedException}, ...) if the record will never be committed by this writer; after a
 * {@link CommitIndeterminateException} the record may or may not be in the log, until {@link
 * Objlog#commitStatus} decides it from the partition and epoch recorded here. Each result has its
 * own future: completing or cancelling it affects no one else.
 *
 * <p>Thread-safety: immutable; the future is safe for concurrent use.
 *
 * @param partition the stream partition the record was appended to (u32)
 * @param writerEpoch the fence epoch of the writer that accepted it (u64): a segment of the
 *     catalog holds this record only if it was published under this epoch
 * @param lsn the record's LSN (unsigned 64-bit)
 * @param committed completes when the record is committed
 */
public record AppendResult(int partition, long writerEpoch, long lsn,
    CompletableFuture<PartitionHead> committed) {
  public AppendResult {
    Objects.requireNonNull(committed, "committed");
  }

  @Override
  public String toString() {
    return "AppendResult[partition=" + Integer.toUnsignedString(partition) + ", epoch="
        + Long.toUnsignedString(writerEpoch) + ", lsn=" + Long.toUnsignedString(lsn) + ", committed="
        + committed.isDone() + "]";
  }
}
