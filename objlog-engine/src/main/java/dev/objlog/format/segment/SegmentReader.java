package dev.objlog.format.segment;

import static dev.objlog.format.segment.SegmentFormat.BLOCK_PREAMBLE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.FILE_PREAMBLE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.TRAILER_SIZE;

import dev.objlog.InvalidArgumentException;
import dev.objlog.IntegrityException;
import dev.objlog.format.HashAlgorithm;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Random access to one finalized segment through ranged reads only (FORMAT.md §1.11).
 *
 * <p>{@link #open} reads the trailer (last 192 bytes), the file preamble and the index, and
 * validates all of them, their agreement and, if given, the catalog's expected {@link SegmentRef}.
 * After that each block is fetched on demand with one range read of its preamble and stored bytes,
 * and is checked (preamble equals index entry, hash before decompression, record rules) before any
 * record is returned. LSNs are unsigned 64-bit values throughout.
 *
 * <p>Two ways to read records, with the same checks: {@link #cursor(long)} (and {@link
 * #forEachRecord}) reads them in place from the decoded block, allocating nothing per record, for
 * replay; {@link #records(long)} and {@link #readBlock} copy each record out into a self-contained
 * {@link SegmentRecord}.
 *
 * <p>Errors: {@link dev.objlog.CorruptObjectException} for bytes that break a rule (subclasses
 * {@link IntegrityException} for hash or reference mismatches, {@link
 * dev.objlog.UnsupportedVersionException} for unknown versions, codecs or hash algorithms); all
 * terminal for the object. Exceptions thrown by the {@link RangeReader} propagate unchanged. No
 * other runtime exception escapes on hostile bytes, and nothing is allocated beyond sizes already
 * validated (a block fetch is at most 64 B + 20 MiB, its decompressed form at most 16 MiB).
 *
 * <p>Thread-safety: immutable after {@link #open}; safe to share if the {@link RangeReader} is.
 * Each record iterator is for one thread.
 */
public final class SegmentReader {
  private final RangeReader reader;
  private final SegmentTrailer trailer;
  private final FilePreamble preamble;
  private final List<BlockInfo> blocks;

  private SegmentReader(RangeReader reader, SegmentTrailer trailer, FilePreamble preamble,
      List<BlockInfo> blocks) {
    this.reader = reader;
    this.trailer = trailer;
    this.preamble = preamble;
    this.blocks = blocks;
  }

  /** Opens with {@link SegmentReaderOptions#defaults()}. */
  public static SegmentReader open(RangeReader reader, long objectSize) {
    return open(reader, objectSize, SegmentReaderOptions.defaults());
  }

  /**
   * Opens a segment of {@code objectSize} bytes (the size the store reports).
   *
   * @throws dev.objlog.CorruptObjectException if the object is not a valid finalized segment
   * @throws IntegrityException if it does not match {@code options.expected()} or a hash fails
   */
  public static SegmentReader open(RangeReader reader, long objectSize, SegmentReaderOptions options) {
    Objects.requireNonNull(reader, "reader");
    Objects.requireNonNull(options, "options");
    if (objectSize < 0) {
      throw new InvalidArgumentException("object size " + objectSize + " is negative");
    }
    if (objectSize < FILE_PREAMBLE_SIZE + TRAILER_SIZE) {
      throw Layout.corrupt("object of " + objectSize + " bytes is too small to be a segment");
    }
    SegmentTrailer trailer =
        Layout.parseTrailer(fetch(reader, objectSize - TRAILER_SIZE, TRAILER_SIZE), objectSize);
    SegmentRef expected = options.expected();
    if (expected != null) {
      expected.verify(trailer);
    }
    FilePreamble preamble = Layout.parseFilePreamble(fetch(reader, 0, FILE_PREAMBLE_SIZE));
    Layout.requireAgreement(preamble, trailer);
    if (trailer.blockIndexLength() > options.maxIndexBytes()) {
      throw Layout.corrupt("index of " + trailer.blockIndexLength() + " bytes exceeds the limit of "
          + options.maxIndexBytes());
    }
    byte[] indexBytes = fetch(reader, trailer.blockIndexOffset(), (int) trailer.blockIndexLength());
    List<BlockInfo> blocks = Layout.parseIndex(indexBytes, trailer);
    SegmentReader segment = new SegmentReader(reader, trailer, preamble, blocks);
    if (options.verifySegmentHash()) {
      segment.verifySegmentHash(options.readChunkBytes());
    }
    return segment;
  }

  private static byte[] fetch(RangeReader reader, long offset, int length) {
    byte[] b = reader.read(offset, length);
    // Defensive even under @NullMarked: the reader is foreign code.
    if (b == null || b.length != length) {
      throw shortRead(offset, length, b == null ? -1 : b.length);
    }
    return b;
  }

  public SegmentTrailer trailer() {
    return trailer;
  }

  public FilePreamble preamble() {
    return preamble;
  }

  /** The validated index entries, in order. */
  public List<BlockInfo> blocks() {
    return blocks;
  }

  /**
   * Reads the whole body once (in ranged chunks) and checks segment_hash.
   *
   * @throws IntegrityException on mismatch
   */
  public void verifySegmentHash() {
    verifySegmentHash(SegmentReaderOptions.DEFAULT_READ_CHUNK_BYTES);
  }

  private void verifySegmentHash(int chunk) {
    HashAlgorithm.Incremental h = trailer.hashAlgorithm().incremental();
    long end = trailer.blockIndexOffset() + trailer.blockIndexLength();
    for (long pos = 0; pos < end; ) {
      int n = (int) Math.min(chunk, end - pos);
      byte[] b = fetch(reader, pos, n);
      h.update(b, 0, n);
      pos += n;
    }
    if (h.value() != trailer.segmentHash()) {
      throw new IntegrityException("segment: segment_hash " + Bytes.hex64(trailer.segmentHash())
          + " != computed " + Bytes.hex64(h.value()));
    }
  }

  /**
   * Fetches, verifies and decodes block {@code blockIndex}, copying every record out.
   *
   * @throws InvalidArgumentException if there is no such block
   */
  public DecodedBlock readBlock(int blockIndex) {
    BlockInfo entry = blocks.get(checkBlockIndex(blockIndex));
    byte[] b = fetchBlock(entry);
    return new DecodedBlock(entry, BlockDecoder.decode(
        entry, trailer.codec(), trailer.hashAlgorithm(), b, BLOCK_PREAMBLE_SIZE));
  }

  private int checkBlockIndex(int blockIndex) {
    if (blockIndex < 0 || blockIndex >= blocks.size()) {
      throw new InvalidArgumentException("block " + blockIndex + " outside 0.." + (blocks.size() - 1));
    }
    return blockIndex;
  }

  /**
   * One range read of the block {@code entry} describes (preamble and stored bytes), with the
   * preamble checked and required to equal the entry. The stored bytes start at offset 64.
   */
  byte[] fetchBlock(BlockInfo entry) {
    byte[] b = fetch(reader, entry.offset(), BLOCK_PREAMBLE_SIZE + (int) entry.storedSize());
    BlockInfo found = Layout.parseBlockPreamble(b, 0, entry.offset(), trailer.codec());
    Layout.requireSameBlock(found, entry);
    return b;
  }

  /** Where a block's bytes (preamble, then stored bytes) start: {@code array[offset, ...)}. */
  record BlockBytes(byte[] array, int offset) {}

  /**
   * As {@link #fetchBlock}, for cursors: the reader's {@link RangeReader#view} when it lends one,
   * else {@link RangeReader#readInto} into {@code context}'s reused fetch buffer or, with {@code
   * fresh}, into a new array the caller may keep. The length is validated (at most 64 B + 20 MiB).
   */
  BlockBytes fetchBlockBytes(BlockInfo entry, DecodeContext context, boolean fresh) {
    int length = BLOCK_PREAMBLE_SIZE + (int) entry.storedSize();
    BlockBytes got;
    ByteBuffer view = reader.view(entry.offset(), length);
    if (view != null) {
      if (view.remaining() != length) {
        throw shortRead(entry.offset(), length, view.remaining());
      }
      if (view.hasArray() && !view.isReadOnly()) {
        got = new BlockBytes(view.array(), view.arrayOffset() + view.position());
      } else {
        byte[] dst = fresh ? new byte[length] : context.fetchBuffer(length);
        view.duplicate().get(dst, 0, length);
        got = new BlockBytes(dst, 0);
      }
    } else {
      byte[] dst = fresh ? new byte[length] : context.fetchBuffer(length);
      int n = reader.readInto(entry.offset(), length, dst, 0);
      if (n != length) {
        throw shortRead(entry.offset(), length, n);
      }
      got = new BlockBytes(dst, 0);
    }
    BlockInfo found = Layout.parseBlockPreamble(got.array(), got.offset(), entry.offset(), trailer.codec());
    Layout.requireSameBlock(found, entry);
    return got;
  }

  private static RuntimeException shortRead(long offset, int length, int got) {
    return Layout.corrupt("range read of " + length + " bytes at " + offset + " returned "
        + (got < 0 ? "nothing" : got + " bytes"));
  }

  /**
   * The block holding {@code lsn}, after clamping up to the segment's base LSN: the first block whose
   * last LSN is at or after it; -1 if {@code lsn} is past the segment's last LSN.
   */
  public int blockIndexForLsn(long lsn) {
    if (Long.compareUnsigned(lsn, trailer.lastLsn()) > 0) {
      return -1;
    }
    int lo = 0;
    int hi = blocks.size() - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(blocks.get(mid).lastLsn(), lsn) >= 0) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  /**
   * The LSN of the first record whose timestamp is at or after {@code timestampMs}; empty if every
   * record is earlier. Decodes at most one block.
   *
   * @throws dev.objlog.CorruptObjectException if the block the index points at has no such record
   */
  public OptionalLong lsnForTimestamp(long timestampMs) {
    if (timestampMs > trailer.maxTimestampMs()) {
      return OptionalLong.empty();
    }
    if (timestampMs <= trailer.minTimestampMs()) {
      return OptionalLong.of(trailer.baseLsn());
    }
    int lo = 0;
    int hi = blocks.size() - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (blocks.get(mid).maxTimestampMs() >= timestampMs) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    BlockInfo block = blocks.get(lo);
    if (timestampMs <= block.minTimestampMs()) {
      return OptionalLong.of(block.baseLsn());
    }
    // Only this block, read in place: no record is copied to find the LSN.
    try (RecordCursor cursor = new RecordCursor(this, block.baseLsn(), lo, lo + 1, new DecodeContext(false), true, false)) {
      while (cursor.next()) {
        if (cursor.timestampMs() >= timestampMs) {
          return OptionalLong.of(cursor.lsn());
        }
      }
    }
    throw Layout.corrupt("block at " + block.offset() + " has max_timestamp_ms " + block.maxTimestampMs()
        + " but no record at or after " + timestampMs);
  }

  /**
   * A zero-copy cursor over the records from {@code fromLsn} (clamped up to the base LSN) to the end
   * of the segment, fetching one block at a time as it reaches it; see {@link RecordCursor} for what
   * is checked when, and for how long what it returns stays valid. Immediately exhausted if {@code
   * fromLsn} is past the last LSN. Close it (or run it to the end) to release its native zstd context.
   */
  public RecordCursor cursor(long fromLsn) {
    int first = blockIndexForLsn(fromLsn);
    return new RecordCursor(this, fromLsn, first < 0 ? blocks.size() : first, blocks.size(),
        new DecodeContext(), true, false);
  }

  /**
   * A zero-copy cursor over block {@code blockIndex} alone that decodes through the caller's {@code
   * context} (its native zstd state and fetch buffer, reused across blocks; the cursor does not
   * close it) and whose records stay valid for good: the block's content is decompressed into an
   * array of its own (or, for codec none, read into one or lent by the {@link RangeReader#view}), so
   * the buffers the cursor hands out may be kept after it moves on, for a cache of decoded blocks.
   * Checks as {@link #cursor(long)}.
   *
   * @throws InvalidArgumentException if there is no such block
   */
  public RecordCursor blockCursor(int blockIndex, DecodeContext context) {
    Objects.requireNonNull(context, "context");
    int index = checkBlockIndex(blockIndex);
    return new RecordCursor(this, blocks.get(index).baseLsn(), index, index + 1, context, false, true);
  }

  /** A zero-copy cursor over every record of the segment, in LSN order. */
  public RecordCursor cursor() {
    return cursor(trailer.baseLsn());
  }

  /**
   * Hands every record from {@code fromLsn} (clamped up to the base LSN) to {@code visitor}, in LSN
   * order, as a {@link RecordView} valid only during the call: the visitor copies what it keeps.
   * Runs a {@link #cursor(long)} to the end and closes it, also when the visitor throws.
   */
  public void forEachRecord(long fromLsn, Consumer<? super RecordView> visitor) {
    Objects.requireNonNull(visitor, "visitor");
    try (RecordCursor cursor = cursor(fromLsn)) {
      while (cursor.next()) {
        visitor.accept(cursor);
      }
    }
  }

  /**
   * Records from {@code fromLsn} (clamped up to the base LSN) to the end of the segment, fetching one
   * block at a time as iteration reaches it. Empty if {@code fromLsn} is past the last LSN.
   * Corruption surfaces from {@code hasNext}/{@code next} as {@link dev.objlog.CorruptObjectException}.
   */
  public Iterator<SegmentRecord> records(long fromLsn) {
    int first = blockIndexForLsn(fromLsn);
    return new RecordIterator(
        new RecordCursor(this, fromLsn, first < 0 ? blocks.size() : first, blocks.size(),
            new DecodeContext(false), true, false));
  }

  /** Every record of the segment, in LSN order. */
  public Iterator<SegmentRecord> records() {
    return records(trailer.baseLsn());
  }

  /**
   * The copying iterator, built on a {@link RecordCursor}: one {@link RecordCursor#toRecord} per
   * record. An iterator cannot be closed, so its cursor owns no native context (zstd makes one per
   * block) and frees its buffers when it reaches the end.
   */
  private static final class RecordIterator implements Iterator<SegmentRecord> {
    private final RecordCursor cursor;
    /** Whether {@code cursor} is on a record not yet returned; null if not yet known. */
    private @Nullable Boolean ready;

    RecordIterator(RecordCursor cursor) {
      this.cursor = cursor;
    }

    @Override
    public boolean hasNext() {
      Boolean r = ready;
      if (r == null) {
        r = cursor.next();
        ready = r;
      }
      return r;
    }

    @Override
    public SegmentRecord next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      ready = null;
      return cursor.toRecord();
    }
  }
}
