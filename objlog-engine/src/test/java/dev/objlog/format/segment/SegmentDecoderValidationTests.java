package dev.objlog.format.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import dev.objlog.CorruptObjectException;
import dev.objlog.IntegrityException;
import dev.objlog.InvalidArgumentException;
import dev.objlog.UnsupportedVersionException;
import dev.objlog.format.HashAlgorithm;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One test per decoder rule of FORMAT.md §1: a valid segment is edited so that exactly that rule
 * breaks (hashes covering the edit are recomputed), and the decoder must name it with the right
 * exception type.
 */
class SegmentDecoderValidationTests {
  private static final long BASE = 1000;

  /** Five 36-to-44-byte records at target 80: blocks [r0 r1] [r2 r3] [r4 with one header]. */
  static byte[] valid() {
    List<SegmentRecord> records = List.of(
        new SegmentRecord(BASE, 100, new byte[20]),
        new SegmentRecord(BASE + 1, 100, new byte[20]),
        new SegmentRecord(BASE + 2, 105, new byte[20]),
        new SegmentRecord(BASE + 3, 110, new byte[20]),
        new SegmentRecord(BASE + 4, 120, List.of(new RecordHeader("k".getBytes(), "v".getBytes())), new byte[20]));
    return TestSegments.encode(TestSegments.options(Codec.NONE, HashAlgorithm.CRC32C, 80), records).bytes();
  }

  record Rule(Consumer<SegmentSurgery> edit, Class<? extends Throwable> type, String message) {}

  private static Arguments rule(String name, Consumer<SegmentSurgery> edit,
      Class<? extends Throwable> type, String message) {
    return Arguments.of(Named.of(name, new Rule(edit, type, message)));
  }

  static Stream<Arguments> trailerRules() {
    int t = 0; // offsets below are relative to the trailer start
    return Stream.of(
        rule("magic", s -> s.buf.putInt(s.trailerOffset + t, 0x504C4600), CorruptObjectException.class, "PLFT"),
        rule("trailer_len", s -> s.buf.putShort(s.trailerOffset + 4, (short) 191), CorruptObjectException.class, "trailer_len"),
        rule("version", s -> s.buf.putShort(s.trailerOffset + 6, (short) 3), UnsupportedVersionException.class, "version 3"),
        rule("flags", s -> s.buf.putInt(s.trailerOffset + 8, 1), CorruptObjectException.class, "trailer flags"),
        rule("codec", s -> s.buf.putShort(s.trailerOffset + 16, (short) 2), UnsupportedVersionException.class, "codec id 2"),
        rule("hash algorithm", s -> s.buf.putShort(s.trailerOffset + 18, (short) 2), UnsupportedVersionException.class, "hash algorithm id 2"),
        rule("record format", s -> s.buf.putShort(s.trailerOffset + 20, (short) 2), UnsupportedVersionException.class, "record format 2"),
        rule("reserved 22", s -> s.buf.put(s.trailerOffset + 23, (byte) 1), CorruptObjectException.class, "trailer reserved"),
        rule("reserved 76", s -> s.buf.put(s.trailerOffset + 79, (byte) 1), CorruptObjectException.class, "trailer reserved"),
        rule("reserved 144", s -> s.buf.put(s.trailerOffset + 191, (byte) 1), CorruptObjectException.class, "trailer reserved"),
        rule("last below base", s -> s.buf.putLong(s.trailerOffset + 32, BASE - 1), CorruptObjectException.class, "last_lsn < base_lsn"),
        rule("last reserved", s -> s.buf.putLong(s.trailerOffset + 32, -1L), CorruptObjectException.class, "reserved LSN"),
        rule("record_count", s -> s.buf.putInt(s.trailerOffset + 56, 6), CorruptObjectException.class, "record_count 6"),
        rule("block_count zero", s -> s.buf.putInt(s.trailerOffset + 60, 0), CorruptObjectException.class, "block_count 0"),
        rule("block_count over max", s -> s.buf.putInt(s.trailerOffset + 60, (int) SegmentFormat.MAX_BLOCK_COUNT + 1), CorruptObjectException.class, "block_count 67108863"),
        rule("block_count over records", s -> s.buf.putInt(s.trailerOffset + 60, 6), CorruptObjectException.class, "exceeds record_count"),
        rule("min after max", s -> s.buf.putLong(s.trailerOffset + 40, 121), CorruptObjectException.class, "min_timestamp_ms > max_timestamp_ms"),
        rule("index length formula", s -> s.buf.putInt(s.trailerOffset + 72, s.indexLength + 64), CorruptObjectException.class, "block_index_length"),
        rule("index offset below 128", s -> s.buf.putLong(s.trailerOffset + 64, 127), CorruptObjectException.class, "< 128"),
        rule("total_size formula", s -> s.buf.putLong(s.trailerOffset + 80, s.bytes.length + 1L), CorruptObjectException.class, "total_size"),
        rule("total_size wraps", s -> s.buf.putLong(s.trailerOffset + 64, -200L), CorruptObjectException.class, "total_size"),
        rule("object size", s -> {
          s.buf.putLong(s.trailerOffset + 64, s.indexOffset + 1L);
          s.buf.putLong(s.trailerOffset + 80, s.bytes.length + 1L);
        }, CorruptObjectException.class, "object is"));
  }

  @ParameterizedTest(name = "trailer rule: {0}")
  @MethodSource("trailerRules")
  void trailerRule(Rule rule) {
    SegmentSurgery s = new SegmentSurgery(valid());
    rule.edit().accept(s);
    s.resealTrailerHashOnly();
    assertRejected(s.bytes, rule);
  }

  static Stream<Arguments> preambleRules() {
    return Stream.of(
        rule("magic", s -> s.buf.put(3, (byte) 'X'), CorruptObjectException.class, "PLSG"),
        rule("version", s -> s.buf.putShort(4, (short) 1), UnsupportedVersionException.class, "version 1"),
        rule("preamble_len", s -> s.buf.putShort(6, (short) 65), CorruptObjectException.class, "preamble_len"),
        rule("flags", s -> s.buf.putInt(8, 4), CorruptObjectException.class, "file preamble flags"),
        rule("codec", s -> s.buf.putShort(16, (short) 9), UnsupportedVersionException.class, "codec id 9"),
        rule("hash algorithm", s -> s.buf.putShort(18, (short) 9), UnsupportedVersionException.class, "hash algorithm id 9"),
        rule("record format", s -> s.buf.putShort(20, (short) 0), UnsupportedVersionException.class, "record format 0"),
        rule("reserved", s -> s.buf.put(22, (byte) 1), CorruptObjectException.class, "reserved"),
        rule("base is the reserved LSN", s -> s.buf.putLong(24, -1L), CorruptObjectException.class, "reserved LSN"),
        rule("partition disagrees", s -> s.buf.putInt(12, 4), CorruptObjectException.class, "disagree on partition"),
        rule("codec disagrees", s -> s.buf.putShort(16, (short) 1), CorruptObjectException.class, "disagree on codec"),
        rule("hash disagrees", s -> s.buf.putShort(18, (short) 1), CorruptObjectException.class, "disagree on hash_algo"),
        rule("base disagrees", s -> s.buf.putLong(24, BASE + 1), CorruptObjectException.class, "disagree on base_lsn"),
        rule("uuid disagrees", s -> s.buf.put(40, (byte) 0), CorruptObjectException.class, "disagree on segment_uuid"),
        rule("tag disagrees", s -> s.buf.put(63, (byte) 0), CorruptObjectException.class, "disagree on writer_tag"));
  }

  @ParameterizedTest(name = "file preamble rule: {0}")
  @MethodSource("preambleRules")
  void preambleRule(Rule rule) {
    SegmentSurgery s = new SegmentSurgery(valid());
    rule.edit().accept(s);
    s.resealTrailer();
    assertRejected(s.bytes, rule);
  }

  static Stream<Arguments> indexRules() {
    return Stream.of(
        rule("magic", s -> s.buf.put(s.indexOffset, (byte) 0), CorruptObjectException.class, "PLIX"),
        rule("preamble_len", s -> s.buf.putShort(s.indexOffset + 4, (short) 0), CorruptObjectException.class, "index preamble_len"),
        rule("flags", s -> s.buf.putShort(s.indexOffset + 6, (short) 1), CorruptObjectException.class, "index flags"),
        rule("entry_size", s -> s.buf.putInt(s.indexOffset + 8, 32), CorruptObjectException.class, "entry_size 32"),
        rule("entry_count", s -> s.buf.putInt(s.indexOffset + 12, 2), CorruptObjectException.class, "entry_count 2"),
        rule("preamble reserved", s -> s.buf.put(s.indexOffset + 40, (byte) 1), CorruptObjectException.class, "index preamble reserved"),
        rule("entry reserved 20", s -> s.buf.put(s.entry(1) + 21, (byte) 1), CorruptObjectException.class, "index entry 1: reserved"),
        rule("entry reserved 56", s -> s.buf.put(s.entry(2) + 63, (byte) 1), CorruptObjectException.class, "index entry 2: reserved"),
        rule("stored_size zero", s -> s.buf.putInt(s.entry(0) + 8, 0), CorruptObjectException.class, "stored_size 0"),
        rule("stored_size over 20 MiB", s -> s.buf.putInt(s.entry(0) + 8, SegmentFormat.MAX_STORED_BLOCK_SIZE + 1), CorruptObjectException.class, "stored_size 20971521"),
        rule("raw_size zero", s -> s.buf.putInt(s.entry(0) + 12, 0), CorruptObjectException.class, "raw_size 0"),
        rule("raw_size over 16 MiB", s -> s.buf.putInt(s.entry(0) + 12, SegmentFormat.MAX_RAW_BLOCK_SIZE + 1), CorruptObjectException.class, "raw_size 16777217"),
        rule("stored != raw with codec none", s -> s.buf.putInt(s.entry(0) + 12, 71), CorruptObjectException.class, "stored_size != raw_size"),
        rule("record_count zero", s -> s.buf.putInt(s.entry(0) + 16, 0), CorruptObjectException.class, "record_count 0"),
        rule("record_count over raw/16", s -> s.buf.putInt(s.entry(0) + 16, 5), CorruptObjectException.class, "record_count 5 impossible"),
        rule("base + count overflows", s -> s.buf.putLong(s.entry(0) + 24, SegmentFormat.MAX_RECORD_LSN), CorruptObjectException.class, "overflows"),
        rule("min after max", s -> s.buf.putLong(s.entry(1) + 32, 111), CorruptObjectException.class, "index entry 1: min_timestamp_ms > max"),
        rule("first offset", s -> s.buf.putLong(s.entry(0), 65), CorruptObjectException.class, "first block offset"),
        rule("first base", s -> s.buf.putLong(s.entry(0) + 24, BASE + 1), CorruptObjectException.class, "first base_lsn"),
        rule("first min", s -> s.buf.putLong(s.entry(0) + 32, 99), CorruptObjectException.class, "first min_timestamp_ms"),
        rule("base chain", s -> s.buf.putLong(s.entry(1) + 24, BASE + 3), CorruptObjectException.class, "index entry 1: base_lsn does not follow"),
        rule("offset chain", s -> s.buf.putLong(s.entry(2), s.block(2) + 1L), CorruptObjectException.class, "index entry 2: offset does not follow"),
        rule("timestamp chain", s -> s.buf.putLong(s.entry(2) + 32, 109), CorruptObjectException.class, "precedes the previous block"),
        rule("last entry end", s -> {
          s.buf.putInt(s.entry(2) + 8, 48);
          s.buf.putInt(s.entry(2) + 12, 48);
        }, CorruptObjectException.class, "last block ends"),
        rule("last max", s -> s.buf.putLong(s.entry(2) + 40, 121), CorruptObjectException.class, "max_timestamp_ms != trailer"),
        rule("last entry count", s -> s.buf.putInt(s.entry(2) + 16, 2), CorruptObjectException.class, "trailer last_lsn"));
  }

  @ParameterizedTest(name = "index rule: {0}")
  @MethodSource("indexRules")
  void indexRule(Rule rule) {
    SegmentSurgery s = new SegmentSurgery(valid());
    rule.edit().accept(s);
    s.resealIndex().resealTrailer();
    assertRejected(s.bytes, rule);
  }

  static Stream<Arguments> blockPreambleRules() {
    return Stream.of(
        rule("magic", s -> s.buf.put(s.block(1), (byte) 0), CorruptObjectException.class, "PLBK"),
        rule("preamble_len", s -> s.buf.putShort(s.block(1) + 4, (short) 32), CorruptObjectException.class, "preamble_len"),
        rule("flags", s -> s.buf.putShort(s.block(1) + 6, (short) 1), CorruptObjectException.class, "flags"),
        rule("reserved 20", s -> s.buf.put(s.block(1) + 20, (byte) 1), CorruptObjectException.class, "reserved"),
        rule("reserved 56", s -> s.buf.put(s.block(1) + 56, (byte) 1), CorruptObjectException.class, "reserved"),
        rule("stored differs", s -> {
          s.buf.putInt(s.block(1) + 8, 64);
          s.buf.putInt(s.block(1) + 12, 64);
        }, CorruptObjectException.class, "does not match its index entry"),
        rule("count differs", s -> s.buf.putInt(s.block(1) + 16, 1), CorruptObjectException.class, "does not match its index entry"),
        rule("base differs", s -> s.buf.putLong(s.block(1) + 24, BASE), CorruptObjectException.class, "does not match its index entry"),
        rule("min differs", s -> s.buf.putLong(s.block(1) + 32, 106), CorruptObjectException.class, "does not match its index entry"),
        rule("max differs", s -> s.buf.putLong(s.block(1) + 40, 111), CorruptObjectException.class, "does not match its index entry"),
        rule("hash differs", s -> s.buf.putLong(s.block(1) + 48, 7), CorruptObjectException.class, "does not match its index entry"));
  }

  @ParameterizedTest(name = "block preamble rule: {0}")
  @MethodSource("blockPreambleRules")
  void blockPreambleRule(Rule rule) {
    SegmentSurgery s = new SegmentSurgery(valid());
    rule.edit().accept(s);
    s.resealTrailer();
    assertRejectedWhenBlockRead(s.bytes, 1, rule);
  }

  static Stream<Arguments> recordRules() {
    return Stream.of(
        rule("headers_len over 256 KiB", s -> s.buf.putInt(s.record(0, 0) + 8, SegmentFormat.MAX_RECORD_HEADER_BYTES + 1), CorruptObjectException.class, "headers_len 262145"),
        rule("value_len over 4 MiB", s -> s.buf.putInt(s.record(0, 0) + 12, SegmentFormat.MAX_RECORD_VALUE_LEN + 1), CorruptObjectException.class, "value_len 4194305"),
        rule("value overruns block", s -> s.buf.putInt(s.record(1, 1) + 12, 21), CorruptObjectException.class, "overrun the block"),
        rule("bytes left after the records", s -> s.buf.putInt(s.record(1, 1) + 12, 19), CorruptObjectException.class, "1 bytes left after record_count"),
        rule("truncated envelope", s -> s.buf.putInt(s.record(0, 0) + 12, 46), CorruptObjectException.class, "truncated envelope"),
        rule("timestamp below block min", s -> s.buf.putLong(s.record(1, 0), 104), CorruptObjectException.class, "precedes the block's min_timestamp_ms"),
        rule("timestamp above block max", s -> s.buf.putLong(s.record(1, 1), 111), CorruptObjectException.class, "exceeds the block's max_timestamp_ms"),
        rule("timestamps decrease", s -> {
          s.buf.putLong(s.record(1, 0), 110);
          s.buf.putLong(s.record(1, 1), 105);
        }, CorruptObjectException.class, "precedes the previous record"),
        rule("header_count zero", s -> s.buf.putShort(s.record(2, 0) + 16, (short) 0), CorruptObjectException.class, "header_count 0"),
        rule("header_count over 64", s -> s.buf.putShort(s.record(2, 0) + 16, (short) 65), CorruptObjectException.class, "header_count 65"),
        rule("header key empty", s -> s.buf.putShort(s.record(2, 0) + 18, (short) 0), CorruptObjectException.class, "key_len 0"),
        rule("header key over 1024", s -> s.buf.putShort(s.record(2, 0) + 18, (short) 1025), CorruptObjectException.class, "key_len 1025"),
        rule("header overruns its area", s -> s.buf.putShort(s.record(2, 0) + 20, (short) 2), CorruptObjectException.class, "overrun the headers area"),
        rule("headers area has trailing bytes", s -> {
          s.buf.putInt(s.record(2, 0) + 8, 9);
          s.buf.putInt(s.record(2, 0) + 12, 19);
        }, CorruptObjectException.class, "1 bytes left in the headers area"),
        rule("headers area shorter than its count", s -> {
          s.buf.putInt(s.record(2, 0) + 8, 1);
          s.buf.putInt(s.record(2, 0) + 12, 27);
        }, CorruptObjectException.class, "too short for a count"),
        rule("header lengths truncated", s -> {
          s.buf.putInt(s.record(2, 0) + 8, 4);
          s.buf.putInt(s.record(2, 0) + 12, 24);
        }, CorruptObjectException.class, "truncated lengths"));
  }

  @ParameterizedTest(name = "record rule: {0}")
  @MethodSource("recordRules")
  void recordRule(Rule rule) {
    SegmentSurgery s = new SegmentSurgery(valid());
    rule.edit().accept(s);
    s.resealAll();
    assertRejected(s.bytes, rule);
  }

  @Test
  void blockHashIsCheckedBeforeAnythingInTheBlock() {
    SegmentSurgery s = new SegmentSurgery(valid());
    s.buf.putInt(s.record(0, 0) + 12, SegmentFormat.MAX_RECORD_VALUE_LEN + 1);
    s.resealTrailer();
    assertRejected(s.bytes, new Rule(x -> {}, IntegrityException.class, "block_hash"));
  }

  @Test
  void indexHashMismatchIsAnIntegrityError() {
    SegmentSurgery s = new SegmentSurgery(valid());
    s.buf.putLong(s.indexOffset + 16, 1);
    s.resealTrailer();
    assertRejected(s.bytes, new Rule(x -> {}, IntegrityException.class, "index_hash"));
  }

  @Test
  void trailerHashMismatchIsAnIntegrityError() {
    SegmentSurgery s = new SegmentSurgery(valid());
    s.buf.putLong(s.trailerOffset + 88, 1);
    assertRejected(s.bytes, new Rule(x -> {}, IntegrityException.class, "trailer_hash"));
  }

  @Test
  void segmentHashIsCheckedOnlyWhenAsked() {
    SegmentSurgery s = new SegmentSurgery(valid());
    s.buf.putLong(s.trailerOffset + 128, 1);
    s.resealTrailerHashOnly();
    SegmentReader.open(RangeReader.ofBytes(s.bytes), s.bytes.length);
    assertThatThrownBy(() -> SegmentReader.open(RangeReader.ofBytes(s.bytes), s.bytes.length,
        SegmentReaderOptions.defaults().withVerifySegmentHash(true)))
        .isExactlyInstanceOf(IntegrityException.class).hasMessageContaining("segment_hash");
    SegmentReader lazy = SegmentReader.open(RangeReader.ofBytes(s.bytes), s.bytes.length);
    assertThatThrownBy(lazy::verifySegmentHash).isExactlyInstanceOf(IntegrityException.class);
    assertThatThrownBy(() -> SequentialSegmentReader.readAll(s.bytes))
        .isExactlyInstanceOf(IntegrityException.class).hasMessageContaining("segment_hash");
  }

  @Test
  void everyReferenceFieldIsCompared() {
    byte[] bytes = valid();
    SegmentRef good = SegmentReader.open(RangeReader.ofBytes(bytes), bytes.length).trailer().toRef();
    SegmentReader.open(RangeReader.ofBytes(bytes), bytes.length, SegmentReaderOptions.defaults().withExpected(good));
    byte[] other = new byte[16];
    List<SegmentRef> wrong = new ArrayList<>();
    for (int field = 0; field < 16; field++) {
      SegmentRef g = good;
      wrong.add(new SegmentRef(
          field == 0 ? g.partition() + 1 : g.partition(),
          field == 1 ? other : g.segmentUuid(),
          field == 2 ? other : g.writerTag(),
          field == 3 ? g.baseLsn() + 1 : g.baseLsn(),
          field == 4 ? g.lastLsn() + 1 : g.lastLsn(),
          field == 5 ? g.minTimestampMs() + 1 : g.minTimestampMs(),
          field == 6 ? g.maxTimestampMs() + 1 : g.maxTimestampMs(),
          field == 7 ? g.recordCount() + 1 : g.recordCount(),
          field == 8 ? g.blockCount() + 1 : g.blockCount(),
          field == 9 ? g.sizeBytes() + 1 : g.sizeBytes(),
          field == 10 ? g.blockIndexOffset() + 1 : g.blockIndexOffset(),
          field == 11 ? g.blockIndexLength() + 64 : g.blockIndexLength(),
          field == 12 ? Codec.ZSTD : g.codec(),
          field == 13 ? HashAlgorithm.XXH64 : g.hashAlgorithm(),
          field == 14 ? g.segmentHash() + 1 : g.segmentHash(),
          field == 15 ? g.trailerHash() + 1 : g.trailerHash()));
    }
    String[] names = {"partition", "segment_uuid", "writer_tag", "base_lsn", "last_lsn", "min_timestamp_ms",
        "max_timestamp_ms", "record_count", "block_count", "size_bytes", "block_index_offset",
        "block_index_length", "codec", "hash_algorithm", "segment_hash", "trailer_hash"};
    for (int i = 0; i < wrong.size(); i++) {
      SegmentRef ref = wrong.get(i);
      assertThatThrownBy(() -> SegmentReader.open(RangeReader.ofBytes(bytes), bytes.length,
          SegmentReaderOptions.defaults().withExpected(ref)))
          .as(names[i]).isExactlyInstanceOf(IntegrityException.class).hasMessageContaining(names[i] + " ");
    }
  }

  @Test
  void aRangeReaderReturningTheWrongLengthIsCorruption() {
    byte[] bytes = valid();
    assertThatThrownBy(() -> SegmentReader.open((offset, length) -> new byte[length - 1], bytes.length))
        .isExactlyInstanceOf(CorruptObjectException.class).hasMessageContaining("range read");
  }

  @Test
  void objectsTooSmallOrIndexesTooLargeAreRefusedBeforeReading() {
    byte[] bytes = valid();
    assertThatThrownBy(() -> SegmentReader.open(RangeReader.ofBytes(bytes), 100))
        .isExactlyInstanceOf(CorruptObjectException.class).hasMessageContaining("too small");
    assertThatThrownBy(() -> SegmentReader.open(RangeReader.ofBytes(bytes), bytes.length,
        SegmentReaderOptions.defaults().withMaxIndexBytes(128)))
        .isExactlyInstanceOf(CorruptObjectException.class).hasMessageContaining("exceeds the limit");
    assertThatThrownBy(() -> SegmentReader.open(RangeReader.ofBytes(bytes), -1))
        .isExactlyInstanceOf(InvalidArgumentException.class);
  }

  @Test
  void readingABlockThatDoesNotExistIsAnArgumentError() {
    byte[] bytes = valid();
    SegmentReader segment = SegmentReader.open(RangeReader.ofBytes(bytes), bytes.length);
    assertThatThrownBy(() -> segment.readBlock(3)).isExactlyInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> segment.readBlock(-1)).isExactlyInstanceOf(InvalidArgumentException.class);
  }

  @Test
  void sequentialReaderRejectsAnUnknownRegionWhereABlockShouldStart() {
    SegmentSurgery s = new SegmentSurgery(valid());
    s.buf.putInt(s.block(1), 0x504C5858);
    s.resealTrailer();
    assertThatThrownBy(() -> SequentialSegmentReader.readAll(s.bytes))
        .isExactlyInstanceOf(CorruptObjectException.class).hasMessageContaining("expected PLBK or PLIX");
  }

  @Test
  void sequentialReaderKnowsTheTrailerOnlyAtTheEnd() {
    byte[] bytes = valid();
    SequentialSegmentReader reader = new SequentialSegmentReader(bytes);
    assertThatThrownBy(reader::trailer).isExactlyInstanceOf(InvalidArgumentException.class);
    while (reader.nextBlock() != null) {
      // drain
    }
    assertThat(reader.trailer().recordCount()).isEqualTo(5);
    assertThat(reader.nextBlock()).isNull();
  }

  // ---- zstd frames ----

  private static byte[] zstdSegment(List<byte[]> frames, List<Integer> rawSizes) {
    // Each raw block: one record of (rawSize - 16) value bytes at timestamp 100.
    return TestAssembler.assemble(Codec.ZSTD, HashAlgorithm.XXH64, BASE, frames, rawSizes);
  }

  private static byte[] rawRecord(int rawSize) {
    byte[] raw = new byte[rawSize];
    ByteBuffer.wrap(raw).putLong(0, 100).putInt(8, 0).putInt(12, rawSize - 16);
    Arrays.fill(raw, 16, rawSize, (byte) 'a');
    return raw;
  }

  @Test
  void zstdFramesWithoutContentSizeDecode() {
    byte[] raw = rawRecord(300);
    byte[] frame;
    try (ZstdCompressCtx ctx = new ZstdCompressCtx().setLevel(3).setContentSize(false)) {
      frame = ctx.compress(raw);
    }
    assertThat(Zstd.getFrameContentSize(frame)).isNegative();
    byte[] seg = zstdSegment(List.of(frame), List.of(300));
    SegmentReader segment = SegmentReader.open(RangeReader.ofBytes(seg), seg.length);
    assertThat(segment.readBlock(0).records().get(0).value()).hasSize(284);
    assertThat(RecordCursorTests.viewedRecords(segment, BASE)).hasSize(1);
    assertThat(SequentialSegmentReader.readAll(seg)).hasSize(1);
  }

  @Test
  void zstdFrameDeclaringAnotherSizeThanRawSizeIsCorrupt() {
    byte[] frame = Zstd.compress(rawRecord(300));
    byte[] seg = zstdSegment(List.of(frame), List.of(320));
    assertBlockRejected(seg, CorruptObjectException.class, "declares 300 bytes");
  }

  @Test
  void zstdFrameDecodingToFewerBytesThanRawSizeIsCorrupt() {
    byte[] frame;
    try (ZstdCompressCtx ctx = new ZstdCompressCtx().setLevel(3).setContentSize(false)) {
      frame = ctx.compress(rawRecord(300));
    }
    byte[] seg = zstdSegment(List.of(frame), List.of(320));
    assertBlockRejected(seg, CorruptObjectException.class, "decompressed 300 bytes");
  }

  @Test
  void zstdFrameDecodingToMoreBytesThanRawSizeIsCorruptWithoutOverallocating() {
    byte[] frame;
    try (ZstdCompressCtx ctx = new ZstdCompressCtx().setLevel(3).setContentSize(false)) {
      frame = ctx.compress(rawRecord(4096));
    }
    byte[] seg = zstdSegment(List.of(frame), List.of(64));
    assertBlockRejected(seg, CorruptObjectException.class, "zstd");
  }

  @Test
  void bytesThatAreNoZstdFrameAreCorrupt() {
    byte[] seg = zstdSegment(List.of("definitely not zstd".getBytes()), List.of(300));
    assertBlockRejected(seg, CorruptObjectException.class, "invalid zstd frame");
  }

  @Test
  void twoConcatenatedFramesInOneBlockAreCorrupt() {
    byte[] a = Zstd.compress(rawRecord(32));
    byte[] twice = new byte[a.length * 2];
    System.arraycopy(a, 0, twice, 0, a.length);
    System.arraycopy(a, 0, twice, a.length, a.length);
    byte[] seg = zstdSegment(List.of(twice), List.of(64));
    assertBlockRejected(seg, CorruptObjectException.class, "zstd frame is " + a.length + " bytes");
  }

  // ---- helpers ----

  private static void assertBlockRejected(byte[] seg, Class<? extends Throwable> type, String message) {
    SegmentReader segment = SegmentReader.open(RangeReader.ofBytes(seg), seg.length);
    assertThatThrownBy(() -> segment.readBlock(0)).isExactlyInstanceOf(type).hasMessageContaining(message);
    assertThatThrownBy(() -> RecordCursorTests.drain(segment)).isExactlyInstanceOf(type)
        .hasMessageContaining(message);
    assertThatThrownBy(() -> SequentialSegmentReader.readAll(seg)).isExactlyInstanceOf(type)
        .hasMessageContaining(message);
  }

  private static void assertRejected(byte[] bytes, Rule rule) {
    assertThatThrownBy(() -> {
      SegmentReader segment = SegmentReader.open(RangeReader.ofBytes(bytes), bytes.length);
      segment.records().forEachRemaining(r -> {});
    }).isExactlyInstanceOf(rule.type()).hasMessageContaining(rule.message());
    assertThatThrownBy(() -> RecordCursorTests.drain(SegmentReader.open(RangeReader.ofBytes(bytes), bytes.length)))
        .isExactlyInstanceOf(rule.type()).hasMessageContaining(rule.message());
    assertThatThrownBy(() -> SequentialSegmentReader.readAll(bytes)).isInstanceOf(CorruptObjectException.class);
  }

  private static void assertRejectedWhenBlockRead(byte[] bytes, int block, Rule rule) {
    SegmentReader segment = SegmentReader.open(RangeReader.ofBytes(bytes), bytes.length);
    assertThatThrownBy(() -> segment.readBlock(block))
        .isExactlyInstanceOf(rule.type()).hasMessageContaining(rule.message());
    assertThatThrownBy(() -> RecordCursorTests.drain(segment))
        .isExactlyInstanceOf(rule.type()).hasMessageContaining(rule.message());
    assertThatThrownBy(() -> SequentialSegmentReader.readAll(bytes)).isInstanceOf(CorruptObjectException.class);
  }
}
