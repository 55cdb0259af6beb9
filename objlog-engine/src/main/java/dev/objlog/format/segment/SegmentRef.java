package dev.objlog.format.segment;

import dev.objlog.IntegrityException;
import dev.objlog.format.HashAlgorithm;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * What a catalog knows about a committed segment (the Go {@code SegmentRef} fields that the trailer
 * repeats). Opening a segment with an expected reference fails with {@link IntegrityException}
 * unless the object's trailer matches it on every field: this is how a reader proves it fetched the
 * object the catalog committed, not another one under the same key. Unsigned fields as in {@link
 * SegmentTrailer}.
 *
 * <p>Thread-safety: immutable (the id arrays are copied in and out).
 */
public record SegmentRef(
    long partition,
    byte[] segmentUuid,
    byte[] writerTag,
    long baseLsn,
    long lastLsn,
    long minTimestampMs,
    long maxTimestampMs,
    long recordCount,
    long blockCount,
    long sizeBytes,
    long blockIndexOffset,
    long blockIndexLength,
    Codec codec,
    HashAlgorithm hashAlgorithm,
    long segmentHash,
    long trailerHash) {

  public SegmentRef {
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

  /**
   * Checks a decoded trailer against this reference.
   *
   * @throws IntegrityException naming every field that differs
   */
  public void verify(SegmentTrailer t) {
    List<String> diffs = new ArrayList<>();
    diff(diffs, "partition", partition, t.partition());
    if (!Arrays.equals(segmentUuid, t.segmentUuid())) {
      diffs.add("segment_uuid " + HexFormat.of().formatHex(segmentUuid) + " != "
          + HexFormat.of().formatHex(t.segmentUuid()));
    }
    if (!Arrays.equals(writerTag, t.writerTag())) {
      diffs.add("writer_tag " + HexFormat.of().formatHex(writerTag) + " != "
          + HexFormat.of().formatHex(t.writerTag()));
    }
    diffU(diffs, "base_lsn", baseLsn, t.baseLsn());
    diffU(diffs, "last_lsn", lastLsn, t.lastLsn());
    diff(diffs, "min_timestamp_ms", minTimestampMs, t.minTimestampMs());
    diff(diffs, "max_timestamp_ms", maxTimestampMs, t.maxTimestampMs());
    diff(diffs, "record_count", recordCount, t.recordCount());
    diff(diffs, "block_count", blockCount, t.blockCount());
    diffU(diffs, "size_bytes", sizeBytes, t.totalSize());
    diffU(diffs, "block_index_offset", blockIndexOffset, t.blockIndexOffset());
    diff(diffs, "block_index_length", blockIndexLength, t.blockIndexLength());
    if (codec != t.codec()) {
      diffs.add("codec " + codec.wireName() + " != " + t.codec().wireName());
    }
    if (hashAlgorithm != t.hashAlgorithm()) {
      diffs.add("hash_algorithm " + hashAlgorithm.wireName() + " != " + t.hashAlgorithm().wireName());
    }
    if (segmentHash != t.segmentHash()) {
      diffs.add("segment_hash " + Bytes.hex64(segmentHash) + " != " + Bytes.hex64(t.segmentHash()));
    }
    if (trailerHash != t.trailerHash()) {
      diffs.add("trailer_hash " + Bytes.hex64(trailerHash) + " != " + Bytes.hex64(t.trailerHash()));
    }
    if (!diffs.isEmpty()) {
      throw new IntegrityException("segment does not match its reference (expected != found): "
          + String.join(", ", diffs));
    }
  }

  private static void diff(List<String> diffs, String name, long expected, long found) {
    if (expected != found) {
      diffs.add(name + " " + expected + " != " + found);
    }
  }

  private static void diffU(List<String> diffs, String name, long expected, long found) {
    if (expected != found) {
      diffs.add(name + " " + Long.toUnsignedString(expected) + " != " + Long.toUnsignedString(found));
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SegmentRef r
        && partition == r.partition
        && Arrays.equals(segmentUuid, r.segmentUuid)
        && Arrays.equals(writerTag, r.writerTag)
        && baseLsn == r.baseLsn
        && lastLsn == r.lastLsn
        && minTimestampMs == r.minTimestampMs
        && maxTimestampMs == r.maxTimestampMs
        && recordCount == r.recordCount
        && blockCount == r.blockCount
        && sizeBytes == r.sizeBytes
        && blockIndexOffset == r.blockIndexOffset
        && blockIndexLength == r.blockIndexLength
        && codec == r.codec
        && hashAlgorithm == r.hashAlgorithm
        && segmentHash == r.segmentHash
        && trailerHash == r.trailerHash;
  }

  @Override
  public int hashCode() {
    return Objects.hash(partition, Arrays.hashCode(segmentUuid), baseLsn, lastLsn, sizeBytes,
        segmentHash, trailerHash);
  }

  @Override
  public String toString() {
    return "SegmentRef[partition=" + partition + ", segmentUuid=" + HexFormat.of().formatHex(segmentUuid)
        + ", baseLsn=" + Long.toUnsignedString(baseLsn) + ", lastLsn=" + Long.toUnsignedString(lastLsn)
        + ", sizeBytes=" + Long.toUnsignedString(sizeBytes) + ", segmentHash=" + Bytes.hex64(segmentHash)
        + ", trailerHash=" + Bytes.hex64(trailerHash) + "]";
  }
}
