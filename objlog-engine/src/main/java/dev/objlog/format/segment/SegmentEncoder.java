package dev.objlog.format.segment;

import static dev.objlog.format.segment.SegmentFormat.BLOCK_PREAMBLE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.FILE_PREAMBLE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.INDEX_ENTRY_SIZE;
import static dev.objlog.format.segment.SegmentFormat.INDEX_PREAMBLE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.TRAILER_SIZE;

import dev.objlog.InvalidArgumentException;
import dev.objlog.ObjlogException;
import java.util.Objects;

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
 * <p>Built from the three parts a pipelined writer uses separately: a {@link RawBlockBuilder}
 * (validation, framing, block boundaries), a {@link BlockSealer} (compression, block hash,
 * preamble) and a {@link SegmentAssembler} (placement, index, segment hash, trailer); here all three
 * run in line on the caller's thread, with the raw buffer and the compression buffer reused.
 *
 * <p>Holds a native zstd context: {@link #close} it (finishing does not).
 *
 * <p>Thread-safety: not thread-safe; one thread at a time.
 */
public final class SegmentEncoder implements AutoCloseable {
  private enum State { OPEN, FINISHED, FAILED, CLOSED }

  private final Codec codec;
  private final RawBlockBuilder builder;
  private final BlockSealer sealer;
  private final SegmentAssembler assembler;
  private State state = State.OPEN;

  /**
   * @param options layout, ids and codec of the segment
   * @param sink receives the bytes in order; see {@link SegmentSink} for its contract
   */
  public SegmentEncoder(SegmentEncoderOptions options, SegmentSink sink) {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(sink, "sink");
    this.codec = options.codec();
    this.builder = new RawBlockBuilder(options.targetBlockSize());
    this.assembler = new SegmentAssembler(options, sink);
    this.sealer = BlockSealer.of(options);
  }

  /**
   * The bytes one record occupies in a block's raw content: {@code 16 + headers_len + value_len}.
   * Does not validate the record.
   */
  public static long encodedSize(SegmentRecord record) {
    return RawBlockBuilder.encodedSize(record);
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

  /**
   * Adds a record: the first fixes the segment's base LSN; each next one must carry the following
   * LSN and a timestamp no earlier than the previous one.
   *
   * @throws InvalidArgumentException if the record breaks a rule; nothing is written then
   */
  public void append(SegmentRecord record) {
    requireOpen();
    boolean first = builder.recordCount() == 0;
    RawBlock closed = builder.append(record);
    try {
      if (first) {
        assembler.begin(record.lsn());
      }
      if (closed != null) {
        place(closed);
      }
    } catch (RuntimeException e) {
      state = State.FAILED;
      throw e;
    }
  }

  /** Seals a closed block into the sealer's scratch, writes it out, and reuses its raw buffer. */
  private void place(RawBlock raw) {
    assembler.add(sealer.sealReusing(raw));
    builder.recycle(raw.buffer());
  }

  /**
   * Seals the open block and writes the index and trailer.
   *
   * @return every trailer field of the finished segment
   * @throws InvalidArgumentException if no record was appended (empty segments are not allowed)
   */
  public SegmentTrailer finish() {
    requireOpen();
    if (builder.recordCount() == 0) {
      throw new InvalidArgumentException("a segment needs at least one record");
    }
    try {
      place(Objects.requireNonNull(builder.takeOpenBlock(), "open block"));
      SegmentTrailer trailer = assembler.finish();
      state = State.FINISHED;
      return trailer;
    } catch (RuntimeException e) {
      state = State.FAILED;
      throw e;
    }
  }

  /** Records appended so far. */
  public long recordCount() {
    return builder.recordCount();
  }

  /** Bytes handed to the sink so far. */
  public long bytesWritten() {
    return assembler.bytesWritten();
  }

  /** Raw bytes in the open (not yet sealed) block. */
  public int openBlockBytes() {
    return builder.openBlockBytes();
  }

  /**
   * An upper bound on the segment's final size if {@link #finish} were called now: bytes already
   * written, the open block at its worst compression, the index and the trailer.
   */
  public long worstCaseFinishedSize() {
    long preamble = assembler.begun() ? 0 : FILE_PREAMBLE_SIZE;
    int rawLen = builder.openBlockBytes();
    long openBlocks = builder.openBlockRecords() > 0 ? 1 : 0;
    long open = openBlocks == 0 ? 0
        : BLOCK_PREAMBLE_SIZE + (codec == Codec.NONE ? rawLen : BlockSealer.zstdBound(rawLen));
    return assembler.bytesWritten() + preamble + open
        + INDEX_PREAMBLE_SIZE + (assembler.blockCount() + openBlocks) * INDEX_ENTRY_SIZE + TRAILER_SIZE;
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
    sealer.close();
  }
}
