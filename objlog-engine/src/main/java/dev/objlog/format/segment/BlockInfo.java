package dev.objlog.format.segment;

/**
 * One block as described by its index entry (and duplicated by its block preamble): where its
 * preamble starts, its stored and raw sizes, its records and their time range, and the hash of its
 * stored bytes. {@code offset} and {@code baseLsn} are unsigned 64-bit values; sizes and counts are
 * u32 values held in longs.
 *
 * <p>Thread-safety: immutable.
 */
public record BlockInfo(
    long offset,
    long storedSize,
    long rawSize,
    long recordCount,
    long baseLsn,
    long minTimestampMs,
    long maxTimestampMs,
    long blockHash) {

  /** The LSN of the block's last record (inclusive). */
  public long lastLsn() {
    return baseLsn + recordCount - 1;
  }

  /** The offset just past the block's stored bytes, where the next region begins. */
  public long endOffset() {
    return offset + SegmentFormat.BLOCK_PREAMBLE_SIZE + storedSize;
  }

  @Override
  public String toString() {
    return "BlockInfo[offset=" + Long.toUnsignedString(offset) + ", storedSize=" + storedSize
        + ", rawSize=" + rawSize + ", recordCount=" + recordCount
        + ", baseLsn=" + Long.toUnsignedString(baseLsn) + ", minTimestampMs=" + minTimestampMs
        + ", maxTimestampMs=" + maxTimestampMs + ", blockHash=" + Bytes.hex64(blockHash) + "]";
  }
}
