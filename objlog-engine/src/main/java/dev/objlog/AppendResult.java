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
 * {@link CommitIndeterminateException} the record may or may not be in the log. Each result has
 * its own future: completing or cancelling it affects no one else.
 *
 * <p>Thread-safety: immutable; the future is safe for concurrent use.
 *
 * @param lsn the record's LSN (unsigned 64-bit)
 * @param committed completes when the record is committed
 */
public record AppendResult(long lsn, CompletableFuture<PartitionHead> committed) {
  public AppendResult {
    Objects.requireNonNull(committed, "committed");
  }

  @Override
  public String toString() {
    return "AppendResult[lsn=" + Long.toUnsignedString(lsn) + ", committed=" + committed.isDone() + "]";
  }
}
