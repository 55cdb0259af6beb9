package dev.objlog.format.segment;

import dev.objlog.InvalidArgumentException;
import dev.objlog.format.HashAlgorithm;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * How a {@link SegmentEncoder} lays out one segment.
 *
 * <ul>
 *   <li>{@code partition}: u32, written to preamble and trailer;
 *   <li>{@code codec} and {@code hashAlgorithm}: one of each for the whole segment;
 *   <li>{@code zstdLevel}: zstd compression level (ignored for codec none);
 *   <li>{@code targetBlockSize}: raw bytes per block before sealing, 1..16 MiB (FORMAT.md §1.10);
 *   <li>{@code createdUnixMs}: the writer clock at segment creation (advisory);
 *   <li>{@code segmentUuid}: 16 random bytes per segment, chosen by the caller;
 *   <li>{@code writerTag}: 16 bytes; objlog stores the catalog writer id here.
 * </ul>
 *
 * <p>Thread-safety: immutable (the id arrays are copied in and out).
 */
public record SegmentEncoderOptions(
    long partition,
    Codec codec,
    HashAlgorithm hashAlgorithm,
    int zstdLevel,
    int targetBlockSize,
    long createdUnixMs,
    byte[] segmentUuid,
    byte[] writerTag) {

  /** The Go writer's defaults apart from the ids: zstd, XXH64, 1 MiB blocks. */
  public static final int DEFAULT_ZSTD_LEVEL = 3;
  /** zstd-jni accepts negative "fast" levels down to this value. */
  public static final int MIN_ZSTD_LEVEL = -131_072;
  public static final int MAX_ZSTD_LEVEL = 22;

  /**
   * @throws InvalidArgumentException if a value is outside its range
   */
  public SegmentEncoderOptions {
    Objects.requireNonNull(codec, "codec");
    Objects.requireNonNull(hashAlgorithm, "hashAlgorithm");
    if (partition < 0 || partition > 0xFFFF_FFFFL) {
      throw new InvalidArgumentException("partition " + partition + " is not a u32");
    }
    if (zstdLevel < MIN_ZSTD_LEVEL || zstdLevel > MAX_ZSTD_LEVEL) {
      throw new InvalidArgumentException("zstd level " + zstdLevel + " outside " + MIN_ZSTD_LEVEL
          + ".." + MAX_ZSTD_LEVEL);
    }
    if (targetBlockSize < 1 || targetBlockSize > SegmentFormat.MAX_RAW_BLOCK_SIZE) {
      throw new InvalidArgumentException("target block size " + targetBlockSize + " outside 1.."
          + SegmentFormat.MAX_RAW_BLOCK_SIZE);
    }
    if (segmentUuid.length != 16) {
      throw new InvalidArgumentException("segment uuid must be 16 bytes, got " + segmentUuid.length);
    }
    if (writerTag.length != 16) {
      throw new InvalidArgumentException("writer tag must be 16 bytes, got " + writerTag.length);
    }
    segmentUuid = segmentUuid.clone();
    writerTag = writerTag.clone();
  }

  /** Options with the Go writer's defaults: zstd level 3, XXH64, 1 MiB target blocks. */
  public static SegmentEncoderOptions defaults(
      long partition, long createdUnixMs, byte[] segmentUuid, byte[] writerTag) {
    return new SegmentEncoderOptions(partition, Codec.ZSTD, HashAlgorithm.XXH64, DEFAULT_ZSTD_LEVEL,
        SegmentFormat.DEFAULT_TARGET_BLOCK_SIZE, createdUnixMs, segmentUuid, writerTag);
  }

  public SegmentEncoderOptions withCodec(Codec value) {
    return new SegmentEncoderOptions(partition, value, hashAlgorithm, zstdLevel, targetBlockSize,
        createdUnixMs, segmentUuid, writerTag);
  }

  public SegmentEncoderOptions withHashAlgorithm(HashAlgorithm value) {
    return new SegmentEncoderOptions(partition, codec, value, zstdLevel, targetBlockSize,
        createdUnixMs, segmentUuid, writerTag);
  }

  public SegmentEncoderOptions withZstdLevel(int value) {
    return new SegmentEncoderOptions(partition, codec, hashAlgorithm, value, targetBlockSize,
        createdUnixMs, segmentUuid, writerTag);
  }

  public SegmentEncoderOptions withTargetBlockSize(int value) {
    return new SegmentEncoderOptions(partition, codec, hashAlgorithm, zstdLevel, value,
        createdUnixMs, segmentUuid, writerTag);
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
    return o instanceof SegmentEncoderOptions x
        && partition == x.partition
        && codec == x.codec
        && hashAlgorithm == x.hashAlgorithm
        && zstdLevel == x.zstdLevel
        && targetBlockSize == x.targetBlockSize
        && createdUnixMs == x.createdUnixMs
        && Arrays.equals(segmentUuid, x.segmentUuid)
        && Arrays.equals(writerTag, x.writerTag);
  }

  @Override
  public int hashCode() {
    return Objects.hash(partition, codec, hashAlgorithm, zstdLevel, targetBlockSize, createdUnixMs,
        Arrays.hashCode(segmentUuid), Arrays.hashCode(writerTag));
  }

  @Override
  public String toString() {
    return "SegmentEncoderOptions[partition=" + partition + ", codec=" + codec + ", hashAlgorithm="
        + hashAlgorithm + ", zstdLevel=" + zstdLevel + ", targetBlockSize=" + targetBlockSize
        + ", createdUnixMs=" + createdUnixMs + ", segmentUuid=" + HexFormat.of().formatHex(segmentUuid)
        + ", writerTag=" + HexFormat.of().formatHex(writerTag) + "]";
  }
}
