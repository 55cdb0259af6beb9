package dev.objlog;

import java.util.Objects;

/**
 * One committed segment as the catalog describes it: where the object lives, which records it
 * holds and the checks a reader applies when it opens the object. Mirrors the Go library's
 * {@code SegmentRef}.
 *
 * <p>Unsigned fields: LSNs, epochs, sizes, offsets and hashes are unsigned 64-bit values held in
 * {@code long}s (compare them with {@link Long#compareUnsigned}, print them with {@link
 * Long#toUnsignedString}); record, block and index-length counts are unsigned 32-bit values held
 * in non-negative {@code long}s; the partition is an unsigned 32-bit value held in an {@code int}.
 * Timestamps are signed Unix milliseconds.
 *
 * <p>Construction checks only that the identifiers are well formed; the catalog checks the rest
 * when it accepts a segment.
 *
 * <p>Thread-safety: immutable.
 *
 * @param uri the segment's object key in the store
 * @param streamId the canonical stream id
 * @param partition the stream partition (u32)
 * @param writerEpoch the writer epoch the segment was published under (u64, non-zero)
 * @param segmentUuid the segment's random id, 32 lowercase hex digits
 * @param writerTag the writer id of the session that published it, 32 lowercase hex digits
 * @param baseLsn first LSN (u64)
 * @param lastLsn last LSN, inclusive (u64)
 * @param minTimestampMs smallest record timestamp
 * @param maxTimestampMs largest record timestamp
 * @param recordCount records in the segment (u32), {@code lastLsn − baseLsn + 1}
 * @param blockCount blocks in the segment (u32)
 * @param sizeBytes size of the segment object (u64)
 * @param blockIndexOffset where the block index starts (u64)
 * @param blockIndexLength length of the block index (u32)
 * @param codec the segment's codec id (0 none, 1 zstd)
 * @param hashAlgorithm the segment's hash algorithm id (0 CRC-32C, 1 XXH64)
 * @param segmentHash the segment trailer's segment hash (u64)
 * @param trailerHash the segment trailer's trailer hash (u64)
 */
public record SegmentRef(
    String uri,
    String streamId,
    int partition,
    long writerEpoch,
    String segmentUuid,
    String writerTag,
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
    long trailerHash) {

  /**
   * @throws InvalidArgumentException if an identifier is not 32 lowercase hex digits
   */
  public SegmentRef {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(streamId, "streamId");
    checkHex32(segmentUuid, "segmentUuid");
    checkHex32(writerTag, "writerTag");
  }

  private static void checkHex32(String value, String field) {
    Objects.requireNonNull(value, field);
    boolean ok = value.length() == 32;
    for (int i = 0; ok && i < value.length(); i++) {
      char c = value.charAt(i);
      ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    }
    if (!ok) {
      throw new InvalidArgumentException(
          field + " must be 32 lowercase hex digits, got \"" + value + "\"");
    }
  }

  /** True if {@code lsn} lies in [baseLsn, lastLsn] (unsigned). */
  public boolean contains(long lsn) {
    return Long.compareUnsigned(baseLsn, lsn) <= 0 && Long.compareUnsigned(lsn, lastLsn) <= 0;
  }

  @Override
  public String toString() {
    return "SegmentRef[" + uri + ", lsn " + Long.toUnsignedString(baseLsn) + ".."
        + Long.toUnsignedString(lastLsn) + ", ts " + minTimestampMs + ".." + maxTimestampMs
        + ", epoch " + Long.toUnsignedString(writerEpoch) + "]";
  }
}
