package dev.objlog.format.segment;

import dev.objlog.format.HashAlgorithm;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * The file preamble (FORMAT.md §1.5): what a writer knows before it emits any block.
 * {@code partition} is a u32 and {@code baseLsn} a u64, both held in longs.
 *
 * <p>Thread-safety: immutable (the id arrays are copied in and out).
 */
public record FilePreamble(
    long partition,
    Codec codec,
    HashAlgorithm hashAlgorithm,
    int recordFormat,
    long baseLsn,
    byte[] segmentUuid,
    byte[] writerTag) {

  public FilePreamble {
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

  @Override
  public boolean equals(Object o) {
    return o instanceof FilePreamble p
        && partition == p.partition
        && codec == p.codec
        && hashAlgorithm == p.hashAlgorithm
        && recordFormat == p.recordFormat
        && baseLsn == p.baseLsn
        && Arrays.equals(segmentUuid, p.segmentUuid)
        && Arrays.equals(writerTag, p.writerTag);
  }

  @Override
  public int hashCode() {
    return Objects.hash(partition, codec, hashAlgorithm, recordFormat, baseLsn,
        Arrays.hashCode(segmentUuid), Arrays.hashCode(writerTag));
  }

  @Override
  public String toString() {
    return "FilePreamble[partition=" + partition + ", codec=" + codec + ", hashAlgorithm=" + hashAlgorithm
        + ", recordFormat=" + recordFormat + ", baseLsn=" + Long.toUnsignedString(baseLsn)
        + ", segmentUuid=" + HexFormat.of().formatHex(segmentUuid)
        + ", writerTag=" + HexFormat.of().formatHex(writerTag) + "]";
  }
}
