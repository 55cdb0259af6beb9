package dev.objlog.format.segment;

import static dev.objlog.format.segment.SegmentFormat.BLOCK_PREAMBLE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.FILE_PREAMBLE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.INDEX_ENTRY_SIZE;
import static dev.objlog.format.segment.SegmentFormat.INDEX_PREAMBLE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.MAX_BLOCK_COUNT;
import static dev.objlog.format.segment.SegmentFormat.MAX_HEADER_KEY_LEN;
import static dev.objlog.format.segment.SegmentFormat.MAX_HEADER_VALUE_LEN;
import static dev.objlog.format.segment.SegmentFormat.MAX_RAW_BLOCK_SIZE;
import static dev.objlog.format.segment.SegmentFormat.MAX_RECORD_COUNT;
import static dev.objlog.format.segment.SegmentFormat.MAX_RECORD_HEADERS;
import static dev.objlog.format.segment.SegmentFormat.MAX_RECORD_HEADER_BYTES;
import static dev.objlog.format.segment.SegmentFormat.MAX_RECORD_LSN;
import static dev.objlog.format.segment.SegmentFormat.MAX_RECORD_VALUE_LEN;
import static dev.objlog.format.segment.SegmentFormat.RECORD_ENVELOPE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.RECORD_FORMAT_V1;
import static dev.objlog.format.segment.SegmentFormat.RESERVED_LSN;
import static dev.objlog.format.segment.SegmentFormat.TRAILER_SIZE;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdException;
import dev.objlog.InvalidArgumentException;
import dev.objlog.ObjlogException;
import dev.objlog.format.HashAlgorithm;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Encodes one segment, forward only: records go in through {@link #append}, and the segment's bytes
 * come out through the {@link SegmentSink} in file order as blocks seal (file preamble with the
 * first block, each block as it fills, index and trailer on {@link #finish}). Nothing is ever
 * rewritten, so the sink can stream straight into a multipart upload. Memory is one open block,
 * one compression buffer and 64 bytes of index per block.
 *
 * <p>Block sealing is exactly the Go writer's (FORMAT.md §1.10): a record joins the open block
 * unless the block is non-empty and the record would take it past the target block size (or past
 * 16 MiB). With codec none the output is byte-identical to the Go writer's.
 *
 * <p>Input errors ({@link InvalidArgumentException}: non-contiguous LSNs, decreasing timestamps,
 * limits of §1.2, an empty segment) are detected before any state changes, so the encoder stays
 * usable after rejecting a record. A sink failure propagates unchanged and leaves the encoder
 * failed; so does a zstd failure (wrapped in {@link ObjlogException}). Use after {@link #finish},
 * failure or {@link #close} is an {@link InvalidArgumentException}.
 *
 * <p>Holds a native zstd context: {@link #close} it (finishing does not).
 *
 * <p>Thread-safety: not thread-safe; one thread at a time.
 */
public final class SegmentEncoder implements AutoCloseable {
  private enum State { OPEN, FINISHED, FAILED, CLOSED }

  private final SegmentEncoderOptions options;
  private final SegmentSink sink;
  private final HashAlgorithm hash;
  private final Codec codec;
  private final int target;
  private final HashAlgorithm.Incremental segmentHash;
  private @Nullable ZstdCompressCtx zstd;

  /** {@code [0, 64)} reserved for the block preamble, so codec none emits one contiguous chunk. */
  private byte[] raw;
  private int rawLen;
  /** zstd output with the same 64-byte reserve; grown to the bound of the largest block seen. */
  private byte[] compressed = new byte[0];
  /** Index preamble reserve plus one entry per sealed block. */
  private byte[] index = new byte[INDEX_PREAMBLE_SIZE + 16 * INDEX_ENTRY_SIZE];

  private State state = State.OPEN;
  private long recordCount;
  private long blockCount;
  private long baseLsn;
  private long lastLsn;
  private long minTs;
  private long lastTs;
  private long blockRecords;
  private long blockBaseLsn;
  private long blockMinTs;
  private long bytesWritten;

  /**
   * @param options layout, ids and codec of the segment
   * @param sink receives the bytes in order; see {@link SegmentSink} for its contract
   */
  public SegmentEncoder(SegmentEncoderOptions options, SegmentSink sink) {
    this.options = Objects.requireNonNull(options, "options");
    this.sink = Objects.requireNonNull(sink, "sink");
    this.hash = options.hashAlgorithm();
    this.codec = options.codec();
    this.target = options.targetBlockSize();
    this.segmentHash = hash.incremental();
    this.raw = new byte[BLOCK_PREAMBLE_SIZE + Math.min(target, 1024 * 1024)];
    if (codec == Codec.ZSTD) {
      try {
        zstd = new ZstdCompressCtx().setLevel(options.zstdLevel()).setChecksum(false).setContentSize(true);
      } catch (ZstdException e) {
        throw new InvalidArgumentException("zstd rejected level " + options.zstdLevel() + ": "
            + e.getMessage());
      }
    }
  }

  /**
   * The bytes one record occupies in a block's raw content: {@code 16 + headers_len + value_len}.
   * Does not validate the record.
   */
  public static long encodedSize(SegmentRecord record) {
    return RECORD_ENVELOPE_SIZE + headersLength(record.headers()) + record.value().length;
  }

  /**
   * An upper bound on the size of a segment holding {@code recordCount} records whose {@link
   * #encodedSize}s sum to {@code encodedRecordBytes}, for any content and either codec, when blocks
   * seal at {@code targetBlockSize}. Greedy sealing means two neighbouring blocks together exceed the
   * target, which bounds the block count; zstd output is bounded by its compressBound.
   */
  public static long worstCaseSegmentSize(
      long recordCount, long encodedRecordBytes, int targetBlockSize, Codec codec) {
    if (recordCount < 0 || encodedRecordBytes < 0 || targetBlockSize < 1) {
      throw new InvalidArgumentException("worst-case size needs non-negative counts and a positive target");
    }
    long blocks = Math.min(recordCount, 2 * (encodedRecordBytes / targetBlockSize) + 2);
    long stored = codec == Codec.NONE ? encodedRecordBytes : zstdBoundSum(encodedRecordBytes, blocks);
    return FILE_PREAMBLE_SIZE + blocks * (BLOCK_PREAMBLE_SIZE + INDEX_ENTRY_SIZE) + stored
        + INDEX_PREAMBLE_SIZE + TRAILER_SIZE;
  }

  /** Σ ZSTD_COMPRESSBOUND(n_i) ≤ Σ n_i + Σ n_i/256 + 64 per block (the small-input margin ≤ 64). */
  private static long zstdBoundSum(long rawBytes, long blocks) {
    return rawBytes + (rawBytes >>> 8) + 64 * blocks;
  }

  private static long zstdBound(int n) {
    return n + (n >>> 8) + (n < 128 * 1024 ? (128 * 1024 - n) >>> 11 : 0);
  }

  /**
   * Adds a record: the first fixes the segment's base LSN; each next one must carry the following
   * LSN and a timestamp no earlier than the previous one.
   *
   * @throws InvalidArgumentException if the record breaks a rule; nothing is written then
   */
  public void append(SegmentRecord record) {
    requireOpen();
    int size = validate(record);
    boolean seal = blockRecords > 0 && (rawLen + (long) size > target || rawLen + (long) size > MAX_RAW_BLOCK_SIZE);
    if (seal && blockCount + 2 > MAX_BLOCK_COUNT) {
      throw new InvalidArgumentException("segment would exceed " + MAX_BLOCK_COUNT + " blocks");
    }
    try {
      if (recordCount == 0) {
        baseLsn = record.lsn();
        minTs = record.timestampMs();
        emitFilePreamble();
      }
      if (seal) {
        sealBlock();
      }
      if (blockRecords == 0) {
        blockBaseLsn = record.lsn();
        blockMinTs = record.timestampMs();
      }
      writeRecord(record, size);
    } catch (RuntimeException e) {
      state = State.FAILED;
      throw e;
    }
    blockRecords++;
    recordCount++;
    lastLsn = record.lsn();
    lastTs = record.timestampMs();
  }

  /** Checks every encoder input rule; returns the encoded size. */
  private int validate(SegmentRecord record) {
    long lsn = record.lsn();
    if (recordCount == 0) {
      if (lsn == RESERVED_LSN) {
        throw new InvalidArgumentException("LSN 2^64-1 is reserved and never assigned to a record");
      }
    } else {
      if (lastLsn == MAX_RECORD_LSN) {
        throw new InvalidArgumentException("LSN space exhausted: the previous record had LSN 2^64-2");
      }
      if (lsn != lastLsn + 1) {
        throw new InvalidArgumentException("non-contiguous LSN " + Long.toUnsignedString(lsn)
            + " after " + Long.toUnsignedString(lastLsn));
      }
      if (record.timestampMs() < lastTs) {
        throw new InvalidArgumentException("timestamp " + record.timestampMs() + " of LSN "
            + Long.toUnsignedString(lsn) + " precedes the previous record's " + lastTs);
      }
    }
    if (recordCount >= MAX_RECORD_COUNT) {
      throw new InvalidArgumentException("segment already holds " + MAX_RECORD_COUNT + " records");
    }
    List<RecordHeader> headers = record.headers();
    if (headers.size() > MAX_RECORD_HEADERS) {
      throw new InvalidArgumentException(headers.size() + " headers exceed " + MAX_RECORD_HEADERS);
    }
    for (RecordHeader h : headers) {
      if (h.key().length == 0) {
        throw new InvalidArgumentException("header key must not be empty");
      }
      if (h.key().length > MAX_HEADER_KEY_LEN) {
        throw new InvalidArgumentException("header key of " + h.key().length + " bytes exceeds "
            + MAX_HEADER_KEY_LEN);
      }
      if (h.value().length > MAX_HEADER_VALUE_LEN) {
        throw new InvalidArgumentException("header value of " + h.value().length + " bytes exceeds "
            + MAX_HEADER_VALUE_LEN);
      }
    }
    long headersLen = headersLength(headers);
    if (headersLen > MAX_RECORD_HEADER_BYTES) {
      throw new InvalidArgumentException("encoded headers of " + headersLen + " bytes exceed "
          + MAX_RECORD_HEADER_BYTES);
    }
    if (record.value().length > MAX_RECORD_VALUE_LEN) {
      throw new InvalidArgumentException("value of " + record.value().length + " bytes exceeds "
          + MAX_RECORD_VALUE_LEN);
    }
    return (int) (RECORD_ENVELOPE_SIZE + headersLen + record.value().length);
  }

  private static long headersLength(List<RecordHeader> headers) {
    if (headers.isEmpty()) {
      return 0;
    }
    long len = 2;
    for (RecordHeader h : headers) {
      len += 4L + h.key().length + h.value().length;
    }
    return len;
  }

  private void writeRecord(SegmentRecord record, int size) {
    int need = BLOCK_PREAMBLE_SIZE + rawLen + size;
    if (need > raw.length) {
      int grown = (int) Math.min((long) BLOCK_PREAMBLE_SIZE + MAX_RAW_BLOCK_SIZE, 2L * raw.length);
      raw = java.util.Arrays.copyOf(raw, Math.max(need, grown));
    }
    byte[] b = raw;
    int p = BLOCK_PREAMBLE_SIZE + rawLen;
    List<RecordHeader> headers = record.headers();
    byte[] value = record.value();
    int headersLen = (int) headersLength(headers);
    Bytes.put64(b, p, record.timestampMs());
    Bytes.put32(b, p + 8, headersLen);
    Bytes.put32(b, p + 12, value.length);
    p += RECORD_ENVELOPE_SIZE;
    if (headersLen > 0) {
      Bytes.put16(b, p, headers.size());
      p += 2;
      for (RecordHeader h : headers) {
        byte[] k = h.key();
        byte[] v = h.value();
        Bytes.put16(b, p, k.length);
        Bytes.put16(b, p + 2, v.length);
        p += 4;
        System.arraycopy(k, 0, b, p, k.length);
        p += k.length;
        System.arraycopy(v, 0, b, p, v.length);
        p += v.length;
      }
    }
    System.arraycopy(value, 0, b, p, value.length);
    rawLen += size;
  }

  private void emitFilePreamble() {
    byte[] p = new byte[FILE_PREAMBLE_SIZE];
    Layout.writeFilePreamble(p, new FilePreamble(options.partition(), codec, hash, RECORD_FORMAT_V1,
        baseLsn, options.segmentUuid(), options.writerTag()));
    emit(p, 0, FILE_PREAMBLE_SIZE);
  }

  private void sealBlock() {
    byte[] out;
    int stored;
    if (codec == Codec.NONE) {
      out = raw;
      stored = rawLen;
    } else {
      int bound = (int) zstdBound(rawLen);
      if (compressed.length < BLOCK_PREAMBLE_SIZE + bound) {
        compressed = new byte[BLOCK_PREAMBLE_SIZE + bound];
      }
      ZstdCompressCtx ctx = Objects.requireNonNull(zstd, "zstd context");
      try {
        stored = ctx.compressByteArray(compressed, BLOCK_PREAMBLE_SIZE, compressed.length - BLOCK_PREAMBLE_SIZE,
            raw, BLOCK_PREAMBLE_SIZE, rawLen);
      } catch (ZstdException e) {
        throw new ObjlogException("zstd compression failed: " + e.getMessage(), e);
      }
      out = compressed;
    }
    long blockHash = hash.hash(out, BLOCK_PREAMBLE_SIZE, stored);
    BlockInfo info = new BlockInfo(bytesWritten, stored, rawLen, blockRecords, blockBaseLsn, blockMinTs,
        lastTs, blockHash);
    Layout.writeBlockPreamble(out, 0, info);
    int entryAt = INDEX_PREAMBLE_SIZE + (int) blockCount * INDEX_ENTRY_SIZE;
    if (entryAt + INDEX_ENTRY_SIZE > index.length) {
      // Up to 67 108 862 entries: the region fits in an int until then (checked in append).
      index = java.util.Arrays.copyOf(index, (int) Math.min(Integer.MAX_VALUE - 8, 2L * index.length));
    }
    Layout.writeIndexEntry(index, entryAt, info);
    emit(out, 0, BLOCK_PREAMBLE_SIZE + stored);
    blockCount++;
    blockRecords = 0;
    rawLen = 0;
  }

  private void emit(byte[] b, int off, int len) {
    sink.write(b, off, len);
    segmentHash.update(b, off, len);
    bytesWritten += len;
  }

  /**
   * Seals the open block and writes the index and trailer.
   *
   * @return every trailer field of the finished segment
   * @throws InvalidArgumentException if no record was appended (empty segments are not allowed)
   */
  public SegmentTrailer finish() {
    requireOpen();
    if (recordCount == 0) {
      throw new InvalidArgumentException("a segment needs at least one record");
    }
    try {
      sealBlock();
      long indexOffset = bytesWritten;
      int indexLen = INDEX_PREAMBLE_SIZE + (int) blockCount * INDEX_ENTRY_SIZE;
      long indexHash = hash.hash(index, INDEX_PREAMBLE_SIZE, indexLen - INDEX_PREAMBLE_SIZE);
      Layout.writeIndexPreamble(index, 0, blockCount, indexHash);
      emit(index, 0, indexLen);
      long segHash = segmentHash.value();
      SegmentTrailer draft = new SegmentTrailer(options.partition(), codec, hash, RECORD_FORMAT_V1,
          baseLsn, lastLsn, minTs, lastTs, recordCount, blockCount, indexOffset, indexLen,
          indexOffset + indexLen + TRAILER_SIZE, options.createdUnixMs(), options.segmentUuid(),
          options.writerTag(), segHash, 0);
      byte[] t = new byte[TRAILER_SIZE];
      long trailerHash = Layout.writeTrailer(t, draft);
      sink.write(t, 0, TRAILER_SIZE);
      bytesWritten += TRAILER_SIZE;
      state = State.FINISHED;
      return new SegmentTrailer(draft.partition(), codec, hash, RECORD_FORMAT_V1, baseLsn, lastLsn,
          minTs, lastTs, recordCount, blockCount, indexOffset, indexLen, draft.totalSize(),
          draft.createdUnixMs(), draft.segmentUuid(), draft.writerTag(), segHash, trailerHash);
    } catch (RuntimeException e) {
      state = State.FAILED;
      throw e;
    }
  }

  /** Records appended so far. */
  public long recordCount() {
    return recordCount;
  }

  /** Bytes handed to the sink so far. */
  public long bytesWritten() {
    return bytesWritten;
  }

  /** Raw bytes in the open (not yet sealed) block. */
  public int openBlockBytes() {
    return rawLen;
  }

  /**
   * An upper bound on the segment's final size if {@link #finish} were called now: bytes already
   * written, the open block at its worst compression, the index and the trailer.
   */
  public long worstCaseFinishedSize() {
    long preamble = recordCount == 0 ? FILE_PREAMBLE_SIZE : 0;
    long openBlocks = blockRecords > 0 ? 1 : 0;
    long open = openBlocks == 0 ? 0
        : BLOCK_PREAMBLE_SIZE + (codec == Codec.NONE ? rawLen : zstdBound(rawLen));
    return bytesWritten + preamble + open
        + INDEX_PREAMBLE_SIZE + (blockCount + openBlocks) * INDEX_ENTRY_SIZE + TRAILER_SIZE;
  }

  private void requireOpen() {
    if (state != State.OPEN) {
      throw new InvalidArgumentException("segment encoder is " + state.name().toLowerCase(java.util.Locale.ROOT));
    }
  }

  /** Releases the zstd context. Idempotent; an unfinished segment is abandoned. */
  @Override
  public void close() {
    state = State.CLOSED;
    if (zstd != null) {
      zstd.close();
      zstd = null;
    }
  }
}
