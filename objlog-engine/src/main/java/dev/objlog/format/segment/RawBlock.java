package dev.objlog.format.segment;

import static dev.objlog.format.segment.SegmentFormat.BLOCK_PREAMBLE_SIZE;

/**
 * One block's raw content, closed by a {@link RawBlockBuilder} and not yet sealed: the framed
 * records in {@code buffer[64, 64 + rawSize)}, with {@code buffer[0, 64)} reserved for the block
 * preamble so that a codec-none seal is the buffer itself. {@code index} is the block's position
 * in its segment (0 for the first).
 *
 * <p>The buffer is handed over, not copied: whoever holds the block owns it, and sealing may write
 * the preamble into its reserve. Thread-safety: immutable fields over an owned buffer; hand it from
 * thread to thread with a happens-before edge (an executor submission does).
 */
public final class RawBlock {
  private final byte[] buffer;
  private final int rawSize;
  private final int recordCount;
  private final long index;
  private final long baseLsn;
  private final long minTimestampMs;
  private final long maxTimestampMs;

  RawBlock(byte[] buffer, int rawSize, int recordCount, long index, long baseLsn, long minTimestampMs,
      long maxTimestampMs) {
    this.buffer = buffer;
    this.rawSize = rawSize;
    this.recordCount = recordCount;
    this.index = index;
    this.baseLsn = baseLsn;
    this.minTimestampMs = minTimestampMs;
    this.maxTimestampMs = maxTimestampMs;
  }

  /** The backing array: 64 reserved bytes, then the raw content. */
  public byte[] buffer() {
    return buffer;
  }

  /** Raw content bytes (sum of the records' encoded sizes). */
  public int rawSize() {
    return rawSize;
  }

  public int recordCount() {
    return recordCount;
  }

  /** Position of this block in its segment, from 0. */
  public long index() {
    return index;
  }

  public long baseLsn() {
    return baseLsn;
  }

  public long lastLsn() {
    return baseLsn + recordCount - 1;
  }

  public long minTimestampMs() {
    return minTimestampMs;
  }

  public long maxTimestampMs() {
    return maxTimestampMs;
  }

  /** Offset of the raw content in {@link #buffer()}: always 64. */
  public static int contentOffset() {
    return BLOCK_PREAMBLE_SIZE;
  }

  @Override
  public String toString() {
    return "RawBlock[index=" + index + ", rawSize=" + rawSize + ", records=" + recordCount
        + ", baseLsn=" + Long.toUnsignedString(baseLsn) + "]";
  }
}
