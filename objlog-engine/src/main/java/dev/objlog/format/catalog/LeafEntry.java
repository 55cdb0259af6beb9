package dev.objlog.format.catalog;

import dev.objlog.InvalidArgumentException;
import java.util.Objects;

/**
 * One committed segment as a catalog leaf entry (128 bytes on the wire). Every field holds its
 * wire value; unsigned 64-bit fields are Java {@code long}s read with {@link Long#compareUnsigned}
 * and printed with {@link Long#toUnsignedString}, unsigned 32-bit fields are non-negative longs.
 *
 * <p>Construction only checks that each value fits its wire field. The format's rules
 * (contiguous LSNs, non-zero ids, ...) are checked when a head or page is encoded or decoded, so
 * that decoders can hold a broken entry long enough to say what is wrong with it.
 *
 * <p>Thread-safety: immutable.
 *
 * @param baseLsn first LSN in the segment (u64)
 * @param lastLsn last LSN in the segment, inclusive (u64, at most 2^64−2)
 * @param minTimestampMs smallest record timestamp, Unix milliseconds
 * @param maxTimestampMs largest record timestamp, Unix milliseconds
 * @param recordCount records in the segment (u32), always {@code lastLsn − baseLsn + 1}
 * @param blockCount blocks in the segment (u32, non-zero)
 * @param sizeBytes size of the segment object (u64, non-zero)
 * @param blockIndexOffset offset of the segment's block index, from its trailer (u64)
 * @param blockIndexLength length of the segment's block index (u32, non-zero)
 * @param codec the segment's codec id (u16: {@link CatalogFormat#CODEC_NONE} or {@link
 *     CatalogFormat#CODEC_ZSTD})
 * @param hashAlgorithm the segment's hash algorithm id (u16), not the page's
 * @param segmentHash the segment trailer's segment hash
 * @param trailerHash the segment trailer's trailer hash
 * @param writerEpoch the writer epoch the segment was published under (u64, non-zero)
 * @param segmentUuid the segment's uuid (non-zero)
 * @param writerTag the writer id of the head that accepted the segment (non-zero)
 */
public record LeafEntry(
    long baseLsn,
    long lastLsn,
    long minTimestampMs,
    long maxTimestampMs,
    long recordCount,
    long blockCount,
    long sizeBytes,
    long blockIndexOffset,
    long blockIndexLength,
    int codec,
    int hashAlgorithm,
    long segmentHash,
    long trailerHash,
    long writerEpoch,
    Id128 segmentUuid,
    Id128 writerTag) {

  static final long U32_MAX = 0xFFFF_FFFFL;

  /**
   * @throws InvalidArgumentException if a 32- or 16-bit field is outside its wire range
   */
  public LeafEntry {
    checkU32(recordCount, "record_count");
    checkU32(blockCount, "block_count");
    checkU32(blockIndexLength, "block_index_length");
    checkU16(codec, "codec");
    checkU16(hashAlgorithm, "hash_algo");
    Objects.requireNonNull(segmentUuid, "segmentUuid");
    Objects.requireNonNull(writerTag, "writerTag");
  }

  static void checkU32(long value, String field) {
    if (value < 0 || value > U32_MAX) {
      throw new InvalidArgumentException(
          field + " is an unsigned 32-bit field; " + value + " does not fit");
    }
  }

  static void checkU16(int value, String field) {
    if (value < 0 || value > 0xFFFF) {
      throw new InvalidArgumentException(
          field + " is an unsigned 16-bit field; " + value + " does not fit");
    }
  }

  /** True if {@code lsn} lies in [baseLsn, lastLsn] (unsigned). */
  public boolean contains(long lsn) {
    return Long.compareUnsigned(baseLsn, lsn) <= 0 && Long.compareUnsigned(lsn, lastLsn) <= 0;
  }

  @Override
  public String toString() {
    return "LeafEntry[lsn "
        + Long.toUnsignedString(baseLsn)
        + ".."
        + Long.toUnsignedString(lastLsn)
        + ", ts "
        + minTimestampMs
        + ".."
        + maxTimestampMs
        + ", epoch "
        + Long.toUnsignedString(writerEpoch)
        + ", uuid "
        + segmentUuid
        + "]";
  }
}
