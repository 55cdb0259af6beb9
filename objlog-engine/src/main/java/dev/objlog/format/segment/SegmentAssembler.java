package dev.objlog.format.segment;

import static dev.objlog.format.segment.SegmentFormat.FILE_PREAMBLE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.INDEX_ENTRY_SIZE;
import static dev.objlog.format.segment.SegmentFormat.INDEX_PREAMBLE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.MAX_BLOCK_COUNT;
import static dev.objlog.format.segment.SegmentFormat.MAX_RECORD_COUNT;
import static dev.objlog.format.segment.SegmentFormat.RECORD_FORMAT_V1;
import static dev.objlog.format.segment.SegmentFormat.RESERVED_LSN;
import static dev.objlog.format.segment.SegmentFormat.TRAILER_SIZE;

import dev.objlog.InvalidArgumentException;
import dev.objlog.format.HashAlgorithm;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

/**
 * The file half of a segment encoder: takes {@link SealedBlock}s in block order and writes the
 * segment to a {@link SegmentSink}, forward only: the file preamble first ({@link #begin}, or with
 * the first block), then each block's preamble and stored bytes as it arrives, then, on {@link
 * #finish}, the index and the trailer. It keeps the index entries (64 bytes per block) and the
 * streaming segment hash; nothing else. The output is a function of the options and the blocks, so
 * assembling the same sealed blocks again (say, into a fresh upload after a failed one) writes the
 * same bytes.
 *
 * <p>Blocks must chain: the first starts at the segment's base LSN, each next one at the LSN after
 * the previous one's last, with a minimum timestamp no earlier than the previous maximum, with the
 * segment's codec; otherwise {@link InvalidArgumentException} and nothing is written. A sink failure
 * propagates unchanged and leaves the assembler failed. Use after {@link #finish} or failure is an
 * {@link InvalidArgumentException}.
 *
 * <p>The sink receives each sealed block's own array; as with {@link SegmentEncoder}, it must
 * consume or copy the bytes before returning.
 *
 * <p>Thread-safety: not thread-safe; one thread at a time.
 */
public final class SegmentAssembler {
  private enum State { NEW, OPEN, FINISHED, FAILED }

  private final SegmentEncoderOptions options;
  private final SegmentSink sink;
  private final HashAlgorithm hash;
  private final HashAlgorithm.Incremental segmentHash;
  /** Index preamble reserve plus one entry per placed block. */
  private byte[] index = new byte[INDEX_PREAMBLE_SIZE + 16 * INDEX_ENTRY_SIZE];

  private State state = State.NEW;
  private long baseLsn;
  private long minTs;
  private long nextLsn;
  private long lastLsn;
  private long lastTs;
  private long recordCount;
  private long blockCount;
  private long bytesWritten;

  /**
   * @param options ids, partition, codec and hash of the segment (level and block size are the
   *     sealer's and the builder's business)
   * @param sink receives the bytes in order; see {@link SegmentSink} for its contract
   */
  public SegmentAssembler(SegmentEncoderOptions options, SegmentSink sink) {
    this.options = Objects.requireNonNull(options, "options");
    this.sink = Objects.requireNonNull(sink, "sink");
    this.hash = options.hashAlgorithm();
    this.segmentHash = hash.incremental();
  }

  /**
   * Writes the file preamble for a segment starting at {@code baseLsn}. Optional: the first block
   * does it otherwise.
   */
  public void begin(long baseLsn) {
    if (state != State.NEW) {
      throw new InvalidArgumentException("segment assembler already begun (" + stateName() + ")");
    }
    if (baseLsn == RESERVED_LSN) {
      throw new InvalidArgumentException("LSN 2^64-1 is reserved and never assigned to a record");
    }
    this.baseLsn = baseLsn;
    this.nextLsn = baseLsn;
    state = State.OPEN;
    byte[] p = new byte[FILE_PREAMBLE_SIZE];
    Layout.writeFilePreamble(p, new FilePreamble(options.partition(), options.codec(), hash,
        RECORD_FORMAT_V1, baseLsn, options.segmentUuid(), options.writerTag()));
    emit(p, 0, FILE_PREAMBLE_SIZE);
  }

  /**
   * Places the next block.
   *
   * @throws InvalidArgumentException if it does not chain onto the blocks before it
   */
  public void add(SealedBlock block) {
    if (state == State.NEW) {
      begin(block.baseLsn());
    }
    requireOpen();
    if (block.codec() != options.codec()) {
      throw new InvalidArgumentException("block sealed with " + block.codec() + " in a "
          + options.codec() + " segment");
    }
    if (block.baseLsn() != nextLsn || (blockCount > 0 && lastLsn == SegmentFormat.MAX_RECORD_LSN)) {
      throw new InvalidArgumentException("block " + block.index() + " starts at LSN "
          + Long.toUnsignedString(block.baseLsn()) + ", expected " + Long.toUnsignedString(nextLsn));
    }
    if (blockCount > 0 && block.minTimestampMs() < lastTs) {
      throw new InvalidArgumentException("block " + block.index() + " starts at timestamp "
          + block.minTimestampMs() + ", before the previous block's " + lastTs);
    }
    if (blockCount + 1 > MAX_BLOCK_COUNT) {
      throw new InvalidArgumentException("segment would exceed " + MAX_BLOCK_COUNT + " blocks");
    }
    if (recordCount + block.recordCount() > MAX_RECORD_COUNT) {
      throw new InvalidArgumentException("segment would exceed " + MAX_RECORD_COUNT + " records");
    }
    int entryAt = INDEX_PREAMBLE_SIZE + (int) blockCount * INDEX_ENTRY_SIZE;
    if (entryAt + INDEX_ENTRY_SIZE > index.length) {
      // Up to 67 108 862 entries: the region fits in an int until then (checked above).
      index = Arrays.copyOf(index, (int) Math.min(Integer.MAX_VALUE - 8, 2L * index.length));
    }
    Layout.writeIndexEntry(index, entryAt, block.at(bytesWritten));
    emit(block.bytes(), 0, block.length());
    if (blockCount == 0) {
      minTs = block.minTimestampMs();
    }
    blockCount++;
    recordCount += block.recordCount();
    lastLsn = block.lastLsn();
    nextLsn = lastLsn + 1;
    lastTs = block.maxTimestampMs();
  }

  private void emit(byte[] b, int off, int len) {
    try {
      sink.write(b, off, len);
    } catch (RuntimeException e) {
      state = State.FAILED;
      throw e;
    }
    segmentHash.update(b, off, len);
    bytesWritten += len;
  }

  /**
   * Writes the index and trailer.
   *
   * @return every trailer field of the finished segment
   * @throws InvalidArgumentException if no block was added (empty segments are not allowed)
   */
  public SegmentTrailer finish() {
    requireOpen();
    if (blockCount == 0) {
      throw new InvalidArgumentException("a segment needs at least one record");
    }
    try {
      long indexOffset = bytesWritten;
      int indexLen = INDEX_PREAMBLE_SIZE + (int) blockCount * INDEX_ENTRY_SIZE;
      long indexHash = hash.hash(index, INDEX_PREAMBLE_SIZE, indexLen - INDEX_PREAMBLE_SIZE);
      Layout.writeIndexPreamble(index, 0, blockCount, indexHash);
      emit(index, 0, indexLen);
      long segHash = segmentHash.value();
      Codec codec = options.codec();
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

  /** Bytes handed to the sink so far. */
  public long bytesWritten() {
    return bytesWritten;
  }

  /** Blocks placed so far. */
  public long blockCount() {
    return blockCount;
  }

  /** Records in the blocks placed so far. */
  public long recordCount() {
    return recordCount;
  }

  /** Whether the file preamble has gone out. */
  public boolean begun() {
    return state != State.NEW;
  }

  private void requireOpen() {
    if (state != State.OPEN) {
      throw new InvalidArgumentException("segment assembler is " + stateName());
    }
  }

  private String stateName() {
    return state.name().toLowerCase(Locale.ROOT);
  }
}
