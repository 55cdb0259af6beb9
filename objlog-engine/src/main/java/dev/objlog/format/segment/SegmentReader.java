package dev.objlog.format.segment;

import static dev.objlog.format.segment.SegmentFormat.BLOCK_PREAMBLE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.FILE_PREAMBLE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.TRAILER_SIZE;

import dev.objlog.InvalidArgumentException;
import dev.objlog.IntegrityException;
import dev.objlog.format.HashAlgorithm;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.OptionalLong;
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
      throw Layout.corrupt("range read of " + length + " bytes at " + offset + " returned "
          + (b == null ? "nothing" : b.length + " bytes"));
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
   * Fetches, verifies and decodes block {@code blockIndex}.
   *
   * @throws InvalidArgumentException if there is no such block
   */
  public DecodedBlock readBlock(int blockIndex) {
    return new DecodedBlock(blocks.get(checkBlockIndex(blockIndex)), decodeBlock(blockIndex, null));
  }

  private int checkBlockIndex(int blockIndex) {
    if (blockIndex < 0 || blockIndex >= blocks.size()) {
      throw new InvalidArgumentException("block " + blockIndex + " outside 0.." + (blocks.size() - 1));
    }
    return blockIndex;
  }

  private List<SegmentRecord> decodeBlock(int blockIndex, byte @Nullable [] scratch) {
    BlockInfo entry = blocks.get(checkBlockIndex(blockIndex));
    byte[] b = fetch(reader, entry.offset(), BLOCK_PREAMBLE_SIZE + (int) entry.storedSize());
    BlockInfo found = Layout.parseBlockPreamble(b, 0, entry.offset(), trailer.codec());
    Layout.requireSameBlock(found, entry);
    return BlockDecoder.decode(
        entry, trailer.codec(), trailer.hashAlgorithm(), b, BLOCK_PREAMBLE_SIZE, scratch);
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
    for (SegmentRecord r : readBlock(lo).records()) {
      if (r.timestampMs() >= timestampMs) {
        return OptionalLong.of(r.lsn());
      }
    }
    throw Layout.corrupt("block at " + block.offset() + " has max_timestamp_ms " + block.maxTimestampMs()
        + " but no record at or after " + timestampMs);
  }

  /**
   * Records from {@code fromLsn} (clamped up to the base LSN) to the end of the segment, fetching one
   * block at a time as iteration reaches it. Empty if {@code fromLsn} is past the last LSN.
   * Corruption surfaces from {@code hasNext}/{@code next} as {@link dev.objlog.CorruptObjectException}.
   */
  public Iterator<SegmentRecord> records(long fromLsn) {
    return new RecordIterator(fromLsn);
  }

  /** Every record of the segment, in LSN order. */
  public Iterator<SegmentRecord> records() {
    return records(trailer.baseLsn());
  }

  private final class RecordIterator implements Iterator<SegmentRecord> {
    private final long from;
    private int nextBlock;
    private @Nullable List<SegmentRecord> current;
    private int pos;
    /** Decompression buffer reused across this iterator's blocks (records copy their bytes out). */
    private byte @Nullable [] scratch;

    RecordIterator(long from) {
      this.from = from;
      this.nextBlock = blockIndexForLsn(from);
      if (nextBlock < 0) {
        nextBlock = blocks.size();
      }
    }

    @Override
    public boolean hasNext() {
      while (current == null || pos >= current.size()) {
        if (nextBlock >= blocks.size()) {
          return false;
        }
        long rawSize = blocks.get(nextBlock).rawSize();
        if (trailer.codec() == Codec.ZSTD && (scratch == null || scratch.length < rawSize)) {
          scratch = new byte[(int) rawSize];
        }
        current = decodeBlock(nextBlock++, scratch);
        pos = 0;
        while (pos < current.size() && Long.compareUnsigned(current.get(pos).lsn(), from) < 0) {
          pos++;
        }
      }
      return true;
    }

    @Override
    public SegmentRecord next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return Objects.requireNonNull(current).get(pos++);
    }
  }
}
