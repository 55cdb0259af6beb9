package dev.objlog.format.segment;

import static dev.objlog.format.segment.SegmentFormat.BLOCK_PREAMBLE_SIZE;

/**
 * One sealed block, ready to be placed in a segment: {@code bytes()[0, length())} is the 64-byte
 * block preamble followed by the stored (compressed or copied) bytes, exactly as they appear in the
 * file. The block preamble does not carry the block's offset, so a sealed block can be produced
 * before the blocks ahead of it; {@link SegmentAssembler} assigns offsets as it places blocks in
 * order.
 *
 * <p>Thread-safety: immutable once published, provided nobody writes to {@link #bytes()}.
 */
public final class SealedBlock {
  private final Codec codec;
  private final byte[] bytes;
  private final int storedSize;
  private final int rawSize;
  private final int recordCount;
  private final long index;
  private final long baseLsn;
  private final long minTimestampMs;
  private final long maxTimestampMs;
  private final long blockHash;

  SealedBlock(Codec codec, byte[] bytes, int storedSize, RawBlock raw, long blockHash) {
    this.codec = codec;
    this.bytes = bytes;
    this.storedSize = storedSize;
    this.rawSize = raw.rawSize();
    this.recordCount = raw.recordCount();
    this.index = raw.index();
    this.baseLsn = raw.baseLsn();
    this.minTimestampMs = raw.minTimestampMs();
    this.maxTimestampMs = raw.maxTimestampMs();
    this.blockHash = blockHash;
  }

  private SealedBlock(SealedBlock b, byte[] bytes) {
    this.codec = b.codec;
    this.bytes = bytes;
    this.storedSize = b.storedSize;
    this.rawSize = b.rawSize;
    this.recordCount = b.recordCount;
    this.index = b.index;
    this.baseLsn = b.baseLsn;
    this.minTimestampMs = b.minTimestampMs;
    this.maxTimestampMs = b.maxTimestampMs;
    this.blockHash = b.blockHash;
  }

  /**
   * This block backed by an array of exactly {@link #length()} bytes: itself if its array already
   * is, else a copy (a codec-none block shares its raw buffer, which may be larger than the block).
   */
  public SealedBlock compacted() {
    return bytes.length == length() ? this : new SealedBlock(this, java.util.Arrays.copyOf(bytes, length()));
  }

  public Codec codec() {
    return codec;
  }

  /**
   * The backing array; the block is {@code [0, length())}. Owned by this block unless it came from
   * a sealer's reusing path (package-internal), in which case it is valid until the sealer's next
   * call.
   */
  public byte[] bytes() {
    return bytes;
  }

  /** Preamble plus stored bytes: the block's size in the file. */
  public int length() {
    return BLOCK_PREAMBLE_SIZE + storedSize;
  }

  public int storedSize() {
    return storedSize;
  }

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

  public long blockHash() {
    return blockHash;
  }

  /** The block's index entry once placed at {@code offset}. */
  public BlockInfo at(long offset) {
    return new BlockInfo(offset, storedSize, rawSize, recordCount, baseLsn, minTimestampMs,
        maxTimestampMs, blockHash);
  }

  @Override
  public String toString() {
    return "SealedBlock[index=" + index + ", storedSize=" + storedSize + ", rawSize=" + rawSize
        + ", records=" + recordCount + ", baseLsn=" + Long.toUnsignedString(baseLsn) + "]";
  }
}
