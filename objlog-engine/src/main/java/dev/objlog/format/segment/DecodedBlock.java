package dev.objlog.format.segment;

import java.util.List;

/**
 * A block that passed every check (preamble equals index entry, hash, decompression, record rules)
 * and its records in LSN order.
 *
 * <p>Thread-safety: immutable (the record list is unmodifiable).
 */
public record DecodedBlock(BlockInfo info, List<SegmentRecord> records) {
  public DecodedBlock {
    records = List.copyOf(records);
  }
}
