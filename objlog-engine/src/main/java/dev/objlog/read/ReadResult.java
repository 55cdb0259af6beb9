package dev.objlog.read;

import dev.objlog.PartitionHead;
import java.util.List;
import java.util.Objects;

/**
 * One batch of records and where the next read should start.
 *
 * <p>Thread-safety: immutable.
 *
 * @param records records in LSN order, contiguous, possibly empty
 * @param nextLsn the LSN after the last returned record, or the requested start when nothing was
 *     returned (u64)
 * @param head the catalog head the read was served from
 */
public record ReadResult(List<ReadRecord> records, long nextLsn, PartitionHead head) {
  public ReadResult {
    records = List.copyOf(records);
    Objects.requireNonNull(head, "head");
  }

  public boolean isEmpty() {
    return records.isEmpty();
  }
}
