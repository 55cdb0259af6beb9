package dev.objlog.format.segment;

import dev.objlog.format.HashAlgorithm;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Every field of a segment's trailer (FORMAT.md §1.9): what a decoder validated and what an encoder
 * produced, and what the catalog stores about a committed segment. LSNs, offsets, sizes and hashes
 * are unsigned 64-bit values held in longs (compare with {@link Long#compareUnsigned}); {@code
 * partition}, {@code recordCount}, {@code blockCount} and {@code blockIndexLength} are u32 values
 * held in longs. Timestamps are signed Unix milliseconds.
 *
 * <p>Thread-safety: immutable (the id arrays are copied in and out).
 */
public record SegmentTrailer(
    long partition,
    Codec codec,
    HashAlgorithm hashAlgorithm,
    int recordFormat,
    long baseLsn,
    long lastLsn,
    long minTimestampMs,
    long maxTimestampMs,
    long recordCount,
    long blockCount,
    long blockIndexOffset,
    long blockIndexLength,
    long totalSize,
    long createdUnixMs,
    byte[] segmentUuid,
    byte[] writerTag,
    long segmentHash,
    long trailerHash) {

  public SegmentTrailer {
    Objects.requireNonNull(codec, "codec");
    Objects.requireNonNull(hashAlgorithm, "hashAlgorithm");
    segmentUuid = segmentUuid.clone();
    writerTag = writerTag.clone();
  }

  @Override
  public byte[] segmentUuid() {
    return segmentUuid.clone();
  }

  @Override
  public byte[] writerTag() {
    return writerTag.clone();
  }

  /** The reference a catalog stores for this segment, for checking it again when reading. */
  public SegmentRef toRef() {
    return new SegmentRef(partition, segmentUuid, writerTag, baseLsn, lastLsn, minTimestampMs,
        maxTimestampMs, recordCount, blockCount, totalSize, blockIndexOffset, blockIndexLength, codec,
        hashAlgorithm, segmentHash, trailerHash);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SegmentTrailer t
        && partition == t.partition
        && codec == t.codec
        && hashAlgorithm == t.hashAlgorithm
        && recordFormat == t.recordFormat
        && baseLsn == t.baseLsn
        && lastLsn == t.lastLsn
        && minTimestampMs == t.minTimestampMs
        && maxTimestampMs == t.maxTimestampMs
        && recordCount == t.recordCount
        && blockCount == t.blockCount
        && blockIndexOffset == t.blockIndexOffset
        && blockIndexLength == t.blockIndexLength
        && totalSize == t.totalSize
        && createdUnixMs == t.createdUnixMs
        && Arrays.equals(segmentUuid, t.segmentUuid)
        && Arrays.equals(writerTag, t.writerTag)
        && segmentHash == t.segmentHash
        && trailerHash == t.trailerHash;
  }

  @Override
  public int hashCode() {
    return Objects.hash(partition, codec, hashAlgorithm, baseLsn, lastLsn, totalSize,
        Arrays.hashCode(segmentUuid), segmentHash, trailerHash);
  }

  @Override
  public String toString() {
    return "SegmentTrailer[partition=" + partition + ", codec=" + codec + ", hashAlgorithm="
        + hashAlgorithm + ", recordFormat=" + recordFormat
        + ", baseLsn=" + Long.toUnsignedString(baseLsn) + ", lastLsn=" + Long.toUnsignedString(lastLsn)
        + ", minTimestampMs=" + minTimestampMs + ", maxTimestampMs=" + maxTimestampMs
        + ", recordCount=" + recordCount + ", blockCount=" + blockCount
        + ", blockIndexOffset=" + Long.toUnsignedString(blockIndexOffset)
        + ", blockIndexLength=" + blockIndexLength + ", totalSize=" + Long.toUnsignedString(totalSize)
        + ", createdUnixMs=" + createdUnixMs
        + ", segmentUuid=" + HexFormat.of().formatHex(segmentUuid)
        + ", writerTag=" + HexFormat.of().formatHex(writerTag)
        + ", segmentHash=" + Bytes.hex64(segmentHash) + ", trailerHash=" + Bytes.hex64(trailerHash) + "]";
  }
}
