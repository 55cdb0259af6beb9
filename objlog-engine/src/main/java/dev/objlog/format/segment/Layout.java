package dev.objlog.format.segment;

import static dev.objlog.format.segment.SegmentFormat.BLOCK_PREAMBLE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.FILE_PREAMBLE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.INDEX_ENTRY_SIZE;
import static dev.objlog.format.segment.SegmentFormat.INDEX_PREAMBLE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.MAX_BLOCK_COUNT;
import static dev.objlog.format.segment.SegmentFormat.MAX_RAW_BLOCK_SIZE;
import static dev.objlog.format.segment.SegmentFormat.MAX_RECORD_LSN;
import static dev.objlog.format.segment.SegmentFormat.MAX_STORED_BLOCK_SIZE;
import static dev.objlog.format.segment.SegmentFormat.RECORD_ENVELOPE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.RECORD_FORMAT_V1;
import static dev.objlog.format.segment.SegmentFormat.TRAILER_SIZE;
import static dev.objlog.format.segment.SegmentFormat.VERSION;

import dev.objlog.CorruptObjectException;
import dev.objlog.IntegrityException;
import dev.objlog.UnsupportedVersionException;
import dev.objlog.format.HashAlgorithm;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Parsing, validation and writing of the fixed-size regions: file preamble, block preamble, index
 * and trailer. Every parser takes an array it has been told is at least the region's size; callers
 * guarantee that, so field reads here cannot go out of bounds.
 */
final class Layout {
  private Layout() {}

  static CorruptObjectException corrupt(String message) {
    return new CorruptObjectException("segment: " + message);
  }

  // ---- file preamble (§1.5) ----

  static FilePreamble parseFilePreamble(byte[] b) {
    requireLength(b, FILE_PREAMBLE_SIZE, "file preamble");
    if (Bytes.i32(b, 0) != SegmentFormat.MAGIC_FILE) {
      throw corrupt("file preamble magic is not PLSG");
    }
    int version = Bytes.u16(b, 4);
    if (version != VERSION) {
      throw new UnsupportedVersionException("segment: unsupported format version " + version);
    }
    if (Bytes.u16(b, 6) != FILE_PREAMBLE_SIZE) {
      throw corrupt("file preamble_len " + Bytes.u16(b, 6) + " != 64");
    }
    if (Bytes.u32(b, 8) != 0) {
      throw corrupt("file preamble flags are not zero");
    }
    Codec codec = Codec.fromId(Bytes.u16(b, 16));
    HashAlgorithm hash = HashAlgorithm.fromId(Bytes.u16(b, 18));
    int recordFormat = Bytes.u16(b, 20);
    requireRecordFormat(recordFormat);
    if (Bytes.u16(b, 22) != 0) {
      throw corrupt("file preamble reserved bytes are not zero");
    }
    long base = Bytes.u64(b, 24);
    if (base == SegmentFormat.RESERVED_LSN) {
      throw corrupt("file preamble base_lsn is the reserved LSN");
    }
    return new FilePreamble(Bytes.u32(b, 12), codec, hash, recordFormat, base,
        Arrays.copyOfRange(b, 32, 48), Arrays.copyOfRange(b, 48, 64));
  }

  static void writeFilePreamble(byte[] b, FilePreamble p) {
    Arrays.fill(b, 0, FILE_PREAMBLE_SIZE, (byte) 0);
    Bytes.put32(b, 0, SegmentFormat.MAGIC_FILE);
    Bytes.put16(b, 4, VERSION);
    Bytes.put16(b, 6, FILE_PREAMBLE_SIZE);
    Bytes.put32(b, 12, (int) p.partition());
    Bytes.put16(b, 16, p.codec().id());
    Bytes.put16(b, 18, p.hashAlgorithm().id());
    Bytes.put16(b, 20, p.recordFormat());
    Bytes.put64(b, 24, p.baseLsn());
    System.arraycopy(p.segmentUuid(), 0, b, 32, 16);
    System.arraycopy(p.writerTag(), 0, b, 48, 16);
  }

  private static void requireRecordFormat(int recordFormat) {
    if (recordFormat != RECORD_FORMAT_V1) {
      throw new UnsupportedVersionException("segment: unsupported record format " + recordFormat);
    }
  }

  // ---- block preamble (§1.6) and index entry (§1.8) ----

  /** Parses the 64-byte block preamble at {@code at}, found at absolute {@code offset}. */
  static BlockInfo parseBlockPreamble(byte[] b, int at, long offset, Codec codec) {
    if (b.length - at < BLOCK_PREAMBLE_SIZE) {
      throw corrupt("block preamble at " + offset + " is truncated");
    }
    if (Bytes.i32(b, at) != SegmentFormat.MAGIC_BLOCK) {
      throw corrupt("block preamble at " + offset + ": magic is not PLBK");
    }
    if (Bytes.u16(b, at + 4) != BLOCK_PREAMBLE_SIZE) {
      throw corrupt("block preamble at " + offset + ": preamble_len != 64");
    }
    if (Bytes.u16(b, at + 6) != 0) {
      throw corrupt("block preamble at " + offset + ": flags are not zero");
    }
    if (!Bytes.allZero(b, at + 20, at + 24) || !Bytes.allZero(b, at + 56, at + 64)) {
      throw corrupt("block preamble at " + offset + ": reserved bytes are not zero");
    }
    BlockInfo info = new BlockInfo(offset, Bytes.u32(b, at + 8), Bytes.u32(b, at + 12),
        Bytes.u32(b, at + 16), Bytes.u64(b, at + 24), Bytes.u64(b, at + 32), Bytes.u64(b, at + 40),
        Bytes.u64(b, at + 48));
    validateBlockFields(info, codec, "block preamble at " + offset);
    return info;
  }

  static void writeBlockPreamble(byte[] b, int at, BlockInfo info) {
    Bytes.put32(b, at, SegmentFormat.MAGIC_BLOCK);
    Bytes.put16(b, at + 4, BLOCK_PREAMBLE_SIZE);
    Bytes.put16(b, at + 6, 0);
    Bytes.put32(b, at + 8, (int) info.storedSize());
    Bytes.put32(b, at + 12, (int) info.rawSize());
    Bytes.put32(b, at + 16, (int) info.recordCount());
    Bytes.put32(b, at + 20, 0);
    Bytes.put64(b, at + 24, info.baseLsn());
    Bytes.put64(b, at + 32, info.minTimestampMs());
    Bytes.put64(b, at + 40, info.maxTimestampMs());
    Bytes.put64(b, at + 48, info.blockHash());
    Bytes.put64(b, at + 56, 0);
  }

  static void writeIndexEntry(byte[] b, int at, BlockInfo info) {
    Bytes.put64(b, at, info.offset());
    Bytes.put32(b, at + 8, (int) info.storedSize());
    Bytes.put32(b, at + 12, (int) info.rawSize());
    Bytes.put32(b, at + 16, (int) info.recordCount());
    Bytes.put32(b, at + 20, 0);
    Bytes.put64(b, at + 24, info.baseLsn());
    Bytes.put64(b, at + 32, info.minTimestampMs());
    Bytes.put64(b, at + 40, info.maxTimestampMs());
    Bytes.put64(b, at + 48, info.blockHash());
    Bytes.put64(b, at + 56, 0);
  }

  /** The per-block rules shared by block preambles and index entries. */
  static void validateBlockFields(BlockInfo info, Codec codec, String where) {
    if (info.storedSize() == 0 || info.storedSize() > MAX_STORED_BLOCK_SIZE) {
      throw corrupt(where + ": stored_size " + info.storedSize() + " outside 1.." + MAX_STORED_BLOCK_SIZE);
    }
    if (info.rawSize() == 0 || info.rawSize() > MAX_RAW_BLOCK_SIZE) {
      throw corrupt(where + ": raw_size " + info.rawSize() + " outside 1.." + MAX_RAW_BLOCK_SIZE);
    }
    if (codec == Codec.NONE && info.storedSize() != info.rawSize()) {
      throw corrupt(where + ": stored_size != raw_size with codec none");
    }
    if (info.recordCount() == 0 || info.recordCount() > info.rawSize() / RECORD_ENVELOPE_SIZE) {
      throw corrupt(where + ": record_count " + info.recordCount() + " impossible for raw_size "
          + info.rawSize());
    }
    // last = base + count - 1 must be an assignable LSN: no u64 overflow and never the reserved LSN.
    if (Long.compareUnsigned(info.baseLsn(), MAX_RECORD_LSN - (info.recordCount() - 1)) > 0) {
      throw corrupt(where + ": base_lsn " + Long.toUnsignedString(info.baseLsn()) + " + record_count "
          + info.recordCount() + " overflows the LSN space");
    }
    if (info.minTimestampMs() > info.maxTimestampMs()) {
      throw corrupt(where + ": min_timestamp_ms > max_timestamp_ms");
    }
  }

  static void requireSameBlock(BlockInfo preamble, BlockInfo entry) {
    if (preamble.storedSize() != entry.storedSize()
        || preamble.rawSize() != entry.rawSize()
        || preamble.recordCount() != entry.recordCount()
        || preamble.baseLsn() != entry.baseLsn()
        || preamble.minTimestampMs() != entry.minTimestampMs()
        || preamble.maxTimestampMs() != entry.maxTimestampMs()
        || preamble.blockHash() != entry.blockHash()) {
      throw corrupt("block preamble at " + entry.offset() + " does not match its index entry: "
          + preamble + " vs " + entry);
    }
  }

  // ---- index (§1.8) ----

  /**
   * Parses and validates an index region ({@code 64 + 64×N} bytes) against an already validated
   * trailer, including its hash and the chain rules between entries.
   */
  static List<BlockInfo> parseIndex(byte[] b, SegmentTrailer t) {
    if (b.length != t.blockIndexLength()) {
      throw corrupt("index region is " + b.length + " bytes, trailer says " + t.blockIndexLength());
    }
    if (Bytes.i32(b, 0) != SegmentFormat.MAGIC_INDEX) {
      throw corrupt("index preamble magic is not PLIX");
    }
    if (Bytes.u16(b, 4) != INDEX_PREAMBLE_SIZE) {
      throw corrupt("index preamble_len != 64");
    }
    if (Bytes.u16(b, 6) != 0) {
      throw corrupt("index flags are not zero");
    }
    if (Bytes.u32(b, 8) != INDEX_ENTRY_SIZE) {
      throw corrupt("index entry_size " + Bytes.u32(b, 8) + " != 64");
    }
    long count = Bytes.u32(b, 12);
    if (count != t.blockCount()) {
      throw corrupt("index entry_count " + count + " != trailer block_count " + t.blockCount());
    }
    if (!Bytes.allZero(b, 24, 64)) {
      throw corrupt("index preamble reserved bytes are not zero");
    }
    long indexHash = Bytes.u64(b, 16);
    long actual = t.hashAlgorithm().hash(b, INDEX_PREAMBLE_SIZE, b.length - INDEX_PREAMBLE_SIZE);
    if (actual != indexHash) {
      throw new IntegrityException("segment: index_hash " + Bytes.hex64(indexHash) + " != computed "
          + Bytes.hex64(actual));
    }
    int n = (int) count;
    List<BlockInfo> entries = new ArrayList<>(n);
    BlockInfo previous = null;
    long recordSum = 0;
    for (int i = 0; i < n; i++) {
      int at = INDEX_PREAMBLE_SIZE + i * INDEX_ENTRY_SIZE;
      if (!Bytes.allZero(b, at + 20, at + 24) || !Bytes.allZero(b, at + 56, at + 64)) {
        throw corrupt("index entry " + i + ": reserved bytes are not zero");
      }
      BlockInfo e = new BlockInfo(Bytes.u64(b, at), Bytes.u32(b, at + 8), Bytes.u32(b, at + 12),
          Bytes.u32(b, at + 16), Bytes.u64(b, at + 24), Bytes.u64(b, at + 32), Bytes.u64(b, at + 40),
          Bytes.u64(b, at + 48));
      String where = "index entry " + i;
      validateBlockFields(e, t.codec(), where);
      if (previous == null) {
        if (e.offset() != FILE_PREAMBLE_SIZE) {
          throw corrupt(where + ": first block offset " + Long.toUnsignedString(e.offset()) + " != 64");
        }
        if (e.baseLsn() != t.baseLsn()) {
          throw corrupt(where + ": first base_lsn != trailer base_lsn");
        }
        if (e.minTimestampMs() != t.minTimestampMs()) {
          throw corrupt(where + ": first min_timestamp_ms != trailer min_timestamp_ms");
        }
      } else {
        // The previous entry is validated, so its end and next LSN cannot overflow.
        if (e.baseLsn() != previous.baseLsn() + previous.recordCount()) {
          throw corrupt(where + ": base_lsn does not follow the previous block");
        }
        if (e.offset() != previous.endOffset()) {
          throw corrupt(where + ": offset does not follow the previous block");
        }
        if (e.minTimestampMs() < previous.maxTimestampMs()) {
          throw corrupt(where + ": min_timestamp_ms precedes the previous block's max");
        }
      }
      recordSum += e.recordCount();
      previous = e;
      entries.add(e);
    }
    if (previous == null) {
      throw corrupt("index has no entries");
    }
    if (previous.lastLsn() != t.lastLsn()) {
      throw corrupt("last index entry ends at LSN " + Long.toUnsignedString(previous.lastLsn())
          + ", trailer last_lsn " + Long.toUnsignedString(t.lastLsn()));
    }
    if (previous.endOffset() != t.blockIndexOffset()) {
      throw corrupt("last block ends at " + previous.endOffset() + ", index starts at "
          + Long.toUnsignedString(t.blockIndexOffset()));
    }
    if (previous.maxTimestampMs() != t.maxTimestampMs()) {
      throw corrupt("last index entry max_timestamp_ms != trailer max_timestamp_ms");
    }
    if (recordSum != t.recordCount()) {
      throw corrupt("index record counts sum to " + recordSum + ", trailer says " + t.recordCount());
    }
    return List.copyOf(entries);
  }

  static void writeIndexPreamble(byte[] b, int at, long entryCount, long indexHash) {
    Arrays.fill(b, at, at + INDEX_PREAMBLE_SIZE, (byte) 0);
    Bytes.put32(b, at, SegmentFormat.MAGIC_INDEX);
    Bytes.put16(b, at + 4, INDEX_PREAMBLE_SIZE);
    Bytes.put32(b, at + 8, INDEX_ENTRY_SIZE);
    Bytes.put32(b, at + 12, (int) entryCount);
    Bytes.put64(b, at + 16, indexHash);
  }

  // ---- trailer (§1.9) ----

  /** Parses and validates the last 192 bytes of an object of {@code objectSize} bytes. */
  static SegmentTrailer parseTrailer(byte[] b, long objectSize) {
    requireLength(b, TRAILER_SIZE, "trailer");
    if (Bytes.i32(b, 0) != SegmentFormat.MAGIC_TRAILER) {
      throw corrupt("trailer magic is not PLFT (object truncated or not a finalized segment)");
    }
    if (Bytes.u16(b, 4) != TRAILER_SIZE) {
      throw corrupt("trailer_len " + Bytes.u16(b, 4) + " != 192");
    }
    int version = Bytes.u16(b, 6);
    if (version != VERSION) {
      throw new UnsupportedVersionException("segment: unsupported format version " + version);
    }
    Codec codec = Codec.fromId(Bytes.u16(b, 16));
    HashAlgorithm hash = HashAlgorithm.fromId(Bytes.u16(b, 18));
    long storedTrailerHash = Bytes.u64(b, 136);
    long computed = trailerHash(b, hash);
    if (computed != storedTrailerHash) {
      throw new IntegrityException("segment: trailer_hash " + Bytes.hex64(storedTrailerHash)
          + " != computed " + Bytes.hex64(computed));
    }
    if (Bytes.u32(b, 8) != 0) {
      throw corrupt("trailer flags are not zero");
    }
    int recordFormat = Bytes.u16(b, 20);
    requireRecordFormat(recordFormat);
    if (Bytes.u16(b, 22) != 0 || Bytes.u32(b, 76) != 0 || !Bytes.allZero(b, 144, 192)) {
      throw corrupt("trailer reserved bytes are not zero");
    }
    long base = Bytes.u64(b, 24);
    long last = Bytes.u64(b, 32);
    long minTs = Bytes.u64(b, 40);
    long maxTs = Bytes.u64(b, 48);
    long recordCount = Bytes.u32(b, 56);
    long blockCount = Bytes.u32(b, 60);
    long indexOffset = Bytes.u64(b, 64);
    long indexLength = Bytes.u32(b, 72);
    long totalSize = Bytes.u64(b, 80);
    if (Long.compareUnsigned(last, base) < 0) {
      throw corrupt("trailer last_lsn < base_lsn");
    }
    if (Long.compareUnsigned(last, MAX_RECORD_LSN) > 0) {
      throw corrupt("trailer last_lsn is the reserved LSN");
    }
    // last - base + 1 cannot wrap: last <= 2^64-2.
    if (recordCount == 0 || recordCount != last - base + 1) {
      throw corrupt("trailer record_count " + recordCount + " != last_lsn - base_lsn + 1");
    }
    if (blockCount == 0 || blockCount > MAX_BLOCK_COUNT) {
      throw corrupt("trailer block_count " + blockCount + " outside 1.." + MAX_BLOCK_COUNT);
    }
    if (blockCount > recordCount) {
      throw corrupt("trailer block_count " + blockCount + " exceeds record_count " + recordCount);
    }
    if (minTs > maxTs) {
      throw corrupt("trailer min_timestamp_ms > max_timestamp_ms");
    }
    if (indexLength != INDEX_PREAMBLE_SIZE + INDEX_ENTRY_SIZE * blockCount) {
      throw corrupt("trailer block_index_length " + indexLength + " != 64 + 64 × " + blockCount);
    }
    if (Long.compareUnsigned(indexOffset, 2L * FILE_PREAMBLE_SIZE) < 0) {
      throw corrupt("trailer block_index_offset " + Long.toUnsignedString(indexOffset) + " < 128");
    }
    // indexOffset + indexLength + 192 must equal totalSize without wrapping around 2^64.
    long tailLength = indexLength + TRAILER_SIZE;
    if (Long.compareUnsigned(indexOffset, -1L - tailLength) > 0
        || indexOffset + tailLength != totalSize) {
      throw corrupt("trailer total_size " + Long.toUnsignedString(totalSize)
          + " != block_index_offset + block_index_length + 192");
    }
    if (totalSize != objectSize) {
      throw corrupt("object is " + Long.toUnsignedString(objectSize) + " bytes, trailer total_size "
          + Long.toUnsignedString(totalSize));
    }
    return new SegmentTrailer(Bytes.u32(b, 12), codec, hash, recordFormat, base, last, minTs, maxTs,
        recordCount, blockCount, indexOffset, indexLength, totalSize, Bytes.u64(b, 88),
        Arrays.copyOfRange(b, 96, 112), Arrays.copyOfRange(b, 112, 128), Bytes.u64(b, 128),
        storedTrailerHash);
  }

  static long trailerHash(byte[] trailer, HashAlgorithm hash) {
    byte[] copy = trailer.clone();
    Arrays.fill(copy, 136, 144, (byte) 0);
    return hash.hash(copy, 0, TRAILER_SIZE);
  }

  /** Writes every trailer field except trailer_hash, then computes and writes it. */
  static long writeTrailer(byte[] b, SegmentTrailer t) {
    Arrays.fill(b, 0, TRAILER_SIZE, (byte) 0);
    Bytes.put32(b, 0, SegmentFormat.MAGIC_TRAILER);
    Bytes.put16(b, 4, TRAILER_SIZE);
    Bytes.put16(b, 6, VERSION);
    Bytes.put32(b, 12, (int) t.partition());
    Bytes.put16(b, 16, t.codec().id());
    Bytes.put16(b, 18, t.hashAlgorithm().id());
    Bytes.put16(b, 20, t.recordFormat());
    Bytes.put64(b, 24, t.baseLsn());
    Bytes.put64(b, 32, t.lastLsn());
    Bytes.put64(b, 40, t.minTimestampMs());
    Bytes.put64(b, 48, t.maxTimestampMs());
    Bytes.put32(b, 56, (int) t.recordCount());
    Bytes.put32(b, 60, (int) t.blockCount());
    Bytes.put64(b, 64, t.blockIndexOffset());
    Bytes.put32(b, 72, (int) t.blockIndexLength());
    Bytes.put64(b, 80, t.totalSize());
    Bytes.put64(b, 88, t.createdUnixMs());
    System.arraycopy(t.segmentUuid(), 0, b, 96, 16);
    System.arraycopy(t.writerTag(), 0, b, 112, 16);
    Bytes.put64(b, 128, t.segmentHash());
    long h = t.hashAlgorithm().hash(b, 0, TRAILER_SIZE);
    Bytes.put64(b, 136, h);
    return h;
  }

  /** The fields the file preamble repeats from the trailer must agree (§1.9). */
  static void requireAgreement(FilePreamble p, SegmentTrailer t) {
    List<String> diffs = new ArrayList<>();
    if (p.partition() != t.partition()) {
      diffs.add("partition");
    }
    if (p.codec() != t.codec()) {
      diffs.add("codec");
    }
    if (p.hashAlgorithm() != t.hashAlgorithm()) {
      diffs.add("hash_algo");
    }
    if (p.recordFormat() != t.recordFormat()) {
      diffs.add("record_format");
    }
    if (p.baseLsn() != t.baseLsn()) {
      diffs.add("base_lsn");
    }
    if (!Arrays.equals(p.segmentUuid(), t.segmentUuid())) {
      diffs.add("segment_uuid");
    }
    if (!Arrays.equals(p.writerTag(), t.writerTag())) {
      diffs.add("writer_tag");
    }
    if (!diffs.isEmpty()) {
      throw corrupt("file preamble and trailer disagree on " + String.join(", ", diffs));
    }
  }

  private static void requireLength(byte[] b, int length, String what) {
    if (b.length != length) {
      throw corrupt(what + " is " + b.length + " bytes, expected " + length);
    }
  }
}
