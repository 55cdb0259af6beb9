package dev.objlog.replica;

import dev.objlog.read.ReadRecord;
import java.util.List;
import java.util.Objects;

/**
 * One batch for a {@link ReplicaApplier}: contiguous records of one partition, and the LSN the
 * cursor is saved at once the batch is applied. A record's idempotency key is ({@link
 * #streamId()}, {@link #partition()}, {@link ReadRecord#lsn()}).
 *
 * <p>Thread-safety: immutable.
 *
 * @param streamId the canonical stream id
 * @param partition the stream partition (u32)
 * @param records records in LSN order, never empty
 * @param nextLsn the LSN after the last record (u64)
 */
public record ReplicaBatch(String streamId, int partition, List<ReadRecord> records, long nextLsn) {
  public ReplicaBatch {
    Objects.requireNonNull(streamId, "streamId");
    records = List.copyOf(records);
    if (records.isEmpty()) {
      throw new IllegalArgumentException("a batch has records");
    }
  }

  /** The LSN of the first record (u64). */
  public long firstLsn() {
    return records.get(0).lsn();
  }
}
