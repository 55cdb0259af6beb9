package dev.objlog.format.segment;

import dev.objlog.InvalidArgumentException;
import org.jspecify.annotations.Nullable;

/**
 * How {@link SegmentReader#open} checks a segment.
 *
 * <ul>
 *   <li>{@code expected}: the catalog's reference; when present the trailer must match it on every
 *       field ({@link dev.objlog.IntegrityException} otherwise);
 *   <li>{@code verifySegmentHash}: read the whole body once at open and check segment_hash (off by
 *       default, as in Go: it costs a full read);
 *   <li>{@code maxIndexBytes}: refuse indexes larger than this (Go default 64 MiB) before fetching;
 *   <li>{@code readChunkBytes}: largest single range read while verifying segment_hash.
 * </ul>
 *
 * <p>Thread-safety: immutable.
 */
public record SegmentReaderOptions(
    @Nullable SegmentRef expected, boolean verifySegmentHash, long maxIndexBytes, int readChunkBytes) {

  public static final long DEFAULT_MAX_INDEX_BYTES = 64L * 1024 * 1024;
  public static final int DEFAULT_READ_CHUNK_BYTES = 8 * 1024 * 1024;

  public SegmentReaderOptions {
    if (maxIndexBytes < SegmentFormat.INDEX_PREAMBLE_SIZE + SegmentFormat.INDEX_ENTRY_SIZE) {
      throw new InvalidArgumentException("maxIndexBytes " + maxIndexBytes + " is below one entry");
    }
    if (readChunkBytes < 1) {
      throw new InvalidArgumentException("readChunkBytes must be positive");
    }
  }

  /** No expected reference, no segment_hash verification, Go's default limits. */
  public static SegmentReaderOptions defaults() {
    return new SegmentReaderOptions(null, false, DEFAULT_MAX_INDEX_BYTES, DEFAULT_READ_CHUNK_BYTES);
  }

  public SegmentReaderOptions withExpected(@Nullable SegmentRef value) {
    return new SegmentReaderOptions(value, verifySegmentHash, maxIndexBytes, readChunkBytes);
  }

  public SegmentReaderOptions withVerifySegmentHash(boolean value) {
    return new SegmentReaderOptions(expected, value, maxIndexBytes, readChunkBytes);
  }

  public SegmentReaderOptions withMaxIndexBytes(long value) {
    return new SegmentReaderOptions(expected, verifySegmentHash, value, readChunkBytes);
  }

  public SegmentReaderOptions withReadChunkBytes(int value) {
    return new SegmentReaderOptions(expected, verifySegmentHash, maxIndexBytes, value);
  }
}
