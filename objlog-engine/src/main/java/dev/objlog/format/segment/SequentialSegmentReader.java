package dev.objlog.format.segment;

import static dev.objlog.format.segment.SegmentFormat.BLOCK_PREAMBLE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.FILE_PREAMBLE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.INDEX_ENTRY_SIZE;
import static dev.objlog.format.segment.SegmentFormat.INDEX_PREAMBLE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.TRAILER_SIZE;

import dev.objlog.IntegrityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Reads a whole segment front to back without using its index (FORMAT.md §1.11, sequential read):
 * the file preamble, then a {@code PLBK} block after another until {@code PLIX}. Each block is
 * checked (fields, chain with the previous block, hash, record rules) before its records are
 * returned. Since the whole object is at hand, reaching {@code PLIX} also validates the index, the
 * trailer, their agreement with the blocks read, and segment_hash; {@link #nextBlock} returns null
 * only after all of that passed.
 *
 * <p>Errors as for {@link SegmentReader}: {@link dev.objlog.CorruptObjectException} and subclasses,
 * nothing else on hostile bytes. After an exception the reader is unusable.
 *
 * <p>Thread-safety: not thread-safe; one thread at a time.
 */
public final class SequentialSegmentReader {
  private final byte[] segment;
  private final FilePreamble preamble;
  private final List<BlockInfo> seen = new ArrayList<>();
  private int pos = FILE_PREAMBLE_SIZE;
  private @Nullable SegmentTrailer trailer;

  /**
   * @param segment the complete object; not copied, must not change while reading
   */
  public SequentialSegmentReader(byte[] segment) {
    this.segment = Objects.requireNonNull(segment, "segment");
    if (segment.length < FILE_PREAMBLE_SIZE) {
      throw Layout.corrupt("object of " + segment.length + " bytes has no file preamble");
    }
    this.preamble = Layout.parseFilePreamble(Arrays.copyOf(segment, FILE_PREAMBLE_SIZE));
  }

  /** Decodes every record of a complete segment, checking all of it. */
  public static List<SegmentRecord> readAll(byte[] segment) {
    SequentialSegmentReader reader = new SequentialSegmentReader(segment);
    List<SegmentRecord> records = new ArrayList<>();
    for (DecodedBlock block = reader.nextBlock(); block != null; block = reader.nextBlock()) {
      records.addAll(block.records());
    }
    return records;
  }

  public FilePreamble preamble() {
    return preamble;
  }

  /**
   * The trailer, once {@link #nextBlock} has returned null.
   *
   * @throws dev.objlog.InvalidArgumentException before the end was reached
   */
  public SegmentTrailer trailer() {
    SegmentTrailer t = trailer;
    if (t == null) {
      throw new dev.objlog.InvalidArgumentException("the trailer is known only after the last block");
    }
    return t;
  }

  /** The next verified block, or null at the index once the rest of the object checked out. */
  public @Nullable DecodedBlock nextBlock() {
    if (trailer != null) {
      return null;
    }
    if (segment.length - pos < 4) {
      throw Layout.corrupt("object ends at " + pos + " without an index");
    }
    int magic = Bytes.i32(segment, pos);
    if (magic == SegmentFormat.MAGIC_INDEX) {
      finishAtIndex();
      return null;
    }
    if (magic != SegmentFormat.MAGIC_BLOCK) {
      throw Layout.corrupt("expected PLBK or PLIX at " + pos);
    }
    BlockInfo info = Layout.parseBlockPreamble(segment, pos, pos, preamble.codec());
    BlockInfo previous = seen.isEmpty() ? null : seen.get(seen.size() - 1);
    if (previous == null) {
      if (info.baseLsn() != preamble.baseLsn()) {
        throw Layout.corrupt("first block base_lsn != file preamble base_lsn");
      }
    } else {
      if (info.baseLsn() != previous.baseLsn() + previous.recordCount()) {
        throw Layout.corrupt("block at " + pos + ": base_lsn does not follow the previous block");
      }
      if (info.minTimestampMs() < previous.maxTimestampMs()) {
        throw Layout.corrupt("block at " + pos + ": min_timestamp_ms precedes the previous block's max");
      }
    }
    List<SegmentRecord> records = BlockDecoder.decode(info, preamble.codec(), preamble.hashAlgorithm(),
        segment, pos + BLOCK_PREAMBLE_SIZE);
    seen.add(info);
    pos += BLOCK_PREAMBLE_SIZE + (int) info.storedSize();
    return new DecodedBlock(info, records);
  }

  private void finishAtIndex() {
    if (seen.isEmpty()) {
      throw Layout.corrupt("segment has no blocks");
    }
    long indexLength = INDEX_PREAMBLE_SIZE + (long) seen.size() * INDEX_ENTRY_SIZE;
    if (segment.length - pos != indexLength + TRAILER_SIZE) {
      throw Layout.corrupt("after " + seen.size() + " blocks the object should end "
          + (indexLength + TRAILER_SIZE) + " bytes after the index start, not "
          + (segment.length - pos));
    }
    SegmentTrailer t = Layout.parseTrailer(
        Arrays.copyOfRange(segment, segment.length - TRAILER_SIZE, segment.length), segment.length);
    Layout.requireAgreement(preamble, t);
    List<BlockInfo> entries =
        Layout.parseIndex(Arrays.copyOfRange(segment, pos, pos + (int) indexLength), t);
    if (!entries.equals(seen)) {
      throw Layout.corrupt("index entries do not describe the blocks in the object");
    }
    long computed = t.hashAlgorithm().hash(segment, 0, pos + (int) indexLength);
    if (computed != t.segmentHash()) {
      throw new IntegrityException("segment: segment_hash " + Bytes.hex64(t.segmentHash())
          + " != computed " + Bytes.hex64(computed));
    }
    trailer = t;
  }
}
