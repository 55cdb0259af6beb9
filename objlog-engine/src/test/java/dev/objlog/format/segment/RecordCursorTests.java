package dev.objlog.format.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.CorruptObjectException;
import dev.objlog.IntegrityException;
import dev.objlog.InvalidArgumentException;
import dev.objlog.format.HashAlgorithm;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The zero-copy {@link RecordCursor}: same records as the copying paths, same checks, no copies. */
class RecordCursorTests {

  /** Runs a cursor over the whole segment, touching nothing but LSNs. */
  static void drain(SegmentReader segment) {
    try (RecordCursor cursor = segment.cursor()) {
      while (cursor.next()) {
        cursor.lsn();
      }
    }
  }

  /**
   * The records from {@code from}, rebuilt only from the in-place accessors (header and value
   * buffers, block content), each also checked against the cursor's own copies.
   */
  static List<SegmentRecord> viewedRecords(SegmentReader segment, long from) {
    List<SegmentRecord> out = new ArrayList<>();
    try (RecordCursor cursor = segment.cursor(from)) {
      while (cursor.next()) {
        List<RecordHeader> headers = new ArrayList<>();
        for (int i = 0; i < cursor.headerCount(); i++) {
          headers.add(new RecordHeader(bytes(cursor.headerKey(i)), bytes(cursor.headerValue(i))));
        }
        byte[] value = bytes(cursor.value());
        byte[] fromContent = new byte[cursor.valueLength()];
        cursor.blockContent().get(cursor.valueOffset(), fromContent, 0, fromContent.length);
        assertThat(fromContent).isEqualTo(value);
        assertThat(cursor.valueBytes()).isEqualTo(value);
        assertThat(cursor.headers()).isEqualTo(headers);
        SegmentRecord r = new SegmentRecord(cursor.lsn(), cursor.timestampMs(), headers, value);
        assertThat(cursor.toRecord()).isEqualTo(r);
        assertThat(Long.compareUnsigned(cursor.lsn(), cursor.block().baseLsn())).isNotNegative();
        assertThat(Long.compareUnsigned(cursor.lsn(), cursor.block().lastLsn())).isNotPositive();
        out.add(r);
      }
      assertThat(cursor.next()).as("stays exhausted").isFalse();
    }
    return out;
  }

  private static byte[] bytes(ByteBuffer b) {
    assertThat(b.isReadOnly()).isTrue();
    assertThat(b.position()).isZero();
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  private static TestSegments.Encoded segment(Codec codec, HashAlgorithm hash, int bytes, int target) {
    return TestSegments.encode(TestSegments.options(codec, hash, target),
        TestSegments.records(bytes, 1L << 40, bytes));
  }

  @ParameterizedTest(name = "{0}/{1} target {3}")
  @CsvSource({
      "ZSTD, XXH64, 300000, 16384",
      "ZSTD, CRC32C, 300000, 1048576",
      "NONE, XXH64, 200000, 8192",
      "NONE, CRC32C, 5000, 64"})
  void givesBackEveryRecordInPlaceFromAnyLsn(Codec codec, HashAlgorithm hash, int bytes, int target) {
    TestSegments.Encoded e = segment(codec, hash, bytes, target);
    SegmentReader segment = SegmentReader.open(RangeReader.ofBytes(e.bytes()), e.bytes().length);
    List<SegmentRecord> all = SegmentConformanceTests.collect(segment.records());
    assertThat(viewedRecords(segment, 0)).containsExactlyElementsOf(all);
    for (int i = 0; i < all.size(); i += Math.max(1, all.size() / 37)) {
      assertThat(viewedRecords(segment, all.get(i).lsn())).as("from record %d", i)
          .containsExactlyElementsOf(all.subList(i, all.size()));
    }
    assertThat(viewedRecords(segment, e.trailer().lastLsn() + 1)).isEmpty();
    assertThat(viewedRecords(segment, -1L)).isEmpty();

    List<SegmentRecord> visited = new ArrayList<>();
    segment.forEachRecord(all.get(all.size() / 2).lsn(), r -> visited.add(r.toRecord()));
    assertThat(visited).containsExactlyElementsOf(all.subList(all.size() / 2, all.size()));
  }

  @Test
  void buffersStayValidWhileTheCursorIsInTheirBlockAndAreReadOnly() {
    TestSegments.Encoded e = segment(Codec.ZSTD, HashAlgorithm.XXH64, 100_000, 16_384);
    SegmentReader segment = SegmentReader.open(RangeReader.ofBytes(e.bytes()), e.bytes().length);
    try (RecordCursor cursor = segment.cursor()) {
      assertThat(cursor.next()).isTrue();
      BlockInfo first = cursor.block();
      ByteBuffer value = cursor.value();
      byte[] copy = cursor.valueBytes();
      ByteBuffer content = cursor.blockContent();
      assertThat(content.capacity()).isEqualTo((int) first.rawSize());
      assertThatThrownBy(() -> value.put(0, (byte) 1)).isInstanceOf(ReadOnlyBufferException.class);
      assertThatThrownBy(() -> content.put(0, (byte) 1)).isInstanceOf(ReadOnlyBufferException.class);
      while (cursor.next() && cursor.block().equals(first)) {
        assertThat(cursor.blockContent()).isSameAs(content);
        assertThat(bytes(value)).isEqualTo(copy);
      }
    }
  }

  @Test
  void accessorsWithoutACurrentRecordAreInvalidArguments() {
    TestSegments.Encoded e = segment(Codec.ZSTD, HashAlgorithm.XXH64, 2000, 1024);
    SegmentReader segment = SegmentReader.open(RangeReader.ofBytes(e.bytes()), e.bytes().length);
    RecordCursor cursor = segment.cursor();
    assertThatThrownBy(cursor::lsn).isExactlyInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(cursor::value).isExactlyInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(cursor::block).isExactlyInstanceOf(InvalidArgumentException.class);
    assertThat(cursor.next()).isTrue();
    assertThatThrownBy(() -> cursor.headerKey(cursor.headerCount()))
        .isExactlyInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> cursor.headerValue(-1)).isExactlyInstanceOf(InvalidArgumentException.class);
    while (cursor.next()) {
      // drain
    }
    assertThatThrownBy(cursor::timestampMs).isExactlyInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(cursor::toRecord).isExactlyInstanceOf(InvalidArgumentException.class);
    cursor.close();
    cursor.close();
    assertThatThrownBy(cursor::next).isExactlyInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(cursor::blockContent).isExactlyInstanceOf(InvalidArgumentException.class);
  }

  @Test
  void aBlockBreakingARecordRuleYieldsNoneOfItsRecordsAndTheFailureSticks() {
    byte[] valid = SegmentDecoderValidationTests.valid(); // blocks [r0 r1] [r2 r3] [r4]
    SegmentSurgery s = new SegmentSurgery(valid);
    // Block 1's second record goes back in time: only checking the whole block finds it.
    s.buf.putLong(s.record(1, 1), 104);
    byte[] bad = s.resealAll().bytes;
    SegmentReader segment = SegmentReader.open(RangeReader.ofBytes(bad), bad.length);
    RecordCursor cursor = segment.cursor();
    List<Long> seen = new ArrayList<>();
    Throwable thrown = null;
    try {
      while (cursor.next()) {
        seen.add(cursor.lsn());
      }
    } catch (CorruptObjectException ex) {
      thrown = ex;
    }
    assertThat(thrown).hasMessageContaining("precedes the previous record");
    assertThat(seen).containsExactly(1000L, 1001L);
    assertThatThrownBy(cursor::next).isSameAs(thrown);
    assertThatThrownBy(cursor::lsn).isExactlyInstanceOf(InvalidArgumentException.class);
    cursor.close();

    Iterator<SegmentRecord> it = segment.records();
    it.next();
    it.next();
    assertThatThrownBy(it::hasNext).isExactlyInstanceOf(CorruptObjectException.class);
    assertThatThrownBy(it::hasNext).as("no skipping past a bad block")
        .isExactlyInstanceOf(CorruptObjectException.class);
  }

  @Test
  void aBlockHashMismatchIsAnIntegrityErrorBeforeAnyOfItsRecords() {
    byte[] bad = SegmentDecoderValidationTests.valid();
    SegmentSurgery s = new SegmentSurgery(bad);
    bad[s.record(2, 0) + 20] ^= 1; // a value byte of block 2, hashes not resealed
    SegmentReader segment = SegmentReader.open(RangeReader.ofBytes(bad), bad.length);
    List<Long> seen = new ArrayList<>();
    assertThatThrownBy(() -> segment.forEachRecord(0, r -> seen.add(r.lsn())))
        .isExactlyInstanceOf(IntegrityException.class).hasMessageContaining("block_hash");
    assertThat(seen).containsExactly(1000L, 1001L, 1002L, 1003L);
  }

  @Test
  void aVisitorsExceptionPropagatesAndTheCursorIsClosed() {
    TestSegments.Encoded e = segment(Codec.ZSTD, HashAlgorithm.XXH64, 2000, 1024);
    SegmentReader segment = SegmentReader.open(RangeReader.ofBytes(e.bytes()), e.bytes().length);
    AtomicReference<RecordView> kept = new AtomicReference<>();
    assertThatThrownBy(() -> segment.forEachRecord(0, r -> {
      kept.set(r);
      throw new IllegalStateException("stop");
    })).isExactlyInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> kept.get().lsn()).isExactlyInstanceOf(InvalidArgumentException.class);
  }

  @Test
  void blockReadsOfAReaderThatDoesNotLendGoThroughReadIntoAndAShortReadIsCorruption() {
    TestSegments.Encoded e = segment(Codec.ZSTD, HashAlgorithm.XXH64, 50_000, 4096);
    byte[] bytes = e.bytes();
    long firstBlock = SegmentReader.open(RangeReader.ofBytes(bytes), bytes.length).blocks().get(0).offset();
    int[] intoCalls = {0};
    RangeReader shortBlocks = new RangeReader() {
      @Override
      public byte[] read(long offset, int length) {
        return RangeReader.ofBytes(bytes).read(offset, length);
      }

      @Override
      public int readInto(long offset, int length, byte[] dst, int dstOffset) {
        intoCalls[0]++;
        RangeReader.ofBytes(bytes).readInto(offset, length, dst, dstOffset);
        return offset == firstBlock ? length - 1 : length;
      }
    };
    SegmentReader segment = SegmentReader.open(shortBlocks, bytes.length);
    assertThatThrownBy(() -> drain(segment)).isExactlyInstanceOf(CorruptObjectException.class)
        .hasMessageContaining("range read");
    assertThat(intoCalls[0]).isEqualTo(1);
    assertThatThrownBy(() -> segment.records().hasNext()).isExactlyInstanceOf(CorruptObjectException.class)
        .hasMessageContaining("range read");

    // Only read() implemented: the default readInto checks the length read() returned.
    SegmentReader lying = SegmentReader.open((offset, length) -> offset == firstBlock
        ? new byte[length + 1] : RangeReader.ofBytes(bytes).read(offset, length), bytes.length);
    assertThatThrownBy(() -> drain(lying)).isExactlyInstanceOf(CorruptObjectException.class)
        .hasMessageContaining("range read");
  }

  /** A reader that cannot lend its bytes: cursors read blocks through readInto into their buffer. */
  private static RangeReader copying(byte[] bytes) {
    return viewing(bytes, (offset, length) -> null);
  }

  @ParameterizedTest(name = "{0}, lending reader: {1}")
  @CsvSource({"ZSTD, true", "ZSTD, false", "NONE, true", "NONE, false"})
  void blockCursorRecordsStayValidAfterTheCursorMovesOnAndTheContextIsReused(Codec codec, boolean lending) {
    TestSegments.Encoded e = segment(codec, HashAlgorithm.XXH64, 200_000, 8192);
    byte[] bytes = e.bytes();
    SegmentReader segment = SegmentReader.open(lending ? RangeReader.ofBytes(bytes) : copying(bytes), bytes.length);
    List<SegmentRecord> all = SegmentConformanceTests.collect(segment.records());
    assertThat(segment.blocks().size()).isGreaterThan(10);
    List<Long> lsns = new ArrayList<>();
    List<ByteBuffer> values = new ArrayList<>();
    try (DecodeContext context = new DecodeContext()) {
      for (int b = 0; b < segment.blocks().size(); b++) {
        try (RecordCursor cursor = segment.blockCursor(b, context)) {
          while (cursor.next()) {
            lsns.add(cursor.lsn());
            values.add(cursor.value());
          }
        }
      }
    }
    // Checked only after every block went through the one context (and it closed).
    assertThat(lsns).containsExactlyElementsOf(all.stream().map(SegmentRecord::lsn).toList());
    for (int i = 0; i < all.size(); i++) {
      assertThat(bytes(values.get(i))).as("record %d", i).isEqualTo(all.get(i).value());
    }
  }

  @Test
  void aClosedDecodeContextIsRefused() {
    TestSegments.Encoded e = segment(Codec.ZSTD, HashAlgorithm.XXH64, 20_000, 4096);
    SegmentReader segment = SegmentReader.open(RangeReader.ofBytes(e.bytes()), e.bytes().length);
    DecodeContext context = new DecodeContext();
    context.close();
    try (RecordCursor cursor = segment.blockCursor(0, context)) {
      assertThatThrownBy(cursor::next).isExactlyInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("decode context is closed");
    }
    assertThatThrownBy(() -> segment.blockCursor(segment.blocks().size(), new DecodeContext()))
        .isExactlyInstanceOf(InvalidArgumentException.class);
  }

  /** A reader over {@code bytes} that copies on read and readInto and lends what {@code view} gives. */
  private static RangeReader viewing(byte[] bytes, BiFunction<Long, Integer, @Nullable ByteBuffer> view) {
    RangeReader inMemory = RangeReader.ofBytes(bytes);
    return new RangeReader() {
      @Override
      public byte[] read(long offset, int length) {
        return inMemory.read(offset, length);
      }

      @Override
      public int readInto(long offset, int length, byte[] dst, int dstOffset) {
        return inMemory.readInto(offset, length, dst, dstOffset);
      }

      @Override
      public @Nullable ByteBuffer view(long offset, int length) {
        return view.apply(offset, length);
      }
    };
  }

  @Test
  void viewsAreReadInPlaceOrCopiedAndAViewOfTheWrongLengthIsCorruption() {
    TestSegments.Encoded e = segment(Codec.ZSTD, HashAlgorithm.XXH64, 50_000, 4096);
    byte[] bytes = e.bytes();
    RangeReader inMemory = RangeReader.ofBytes(bytes);
    SegmentReader plain = SegmentReader.open(inMemory, bytes.length);
    List<SegmentRecord> all = SegmentConformanceTests.collect(plain.records());
    long firstBlock = plain.blocks().get(0).offset();

    // A read-only view has no accessible array: its bytes are copied into the cursor's buffer.
    RangeReader readOnlyViews = viewing(bytes, (offset, length) -> inMemory.view(offset, length).asReadOnlyBuffer());
    assertThat(viewedRecords(SegmentReader.open(readOnlyViews, bytes.length), 0)).containsExactlyElementsOf(all);

    RangeReader shortView = viewing(bytes, (offset, length) -> offset == firstBlock
        ? ByteBuffer.wrap(bytes, (int) (long) offset, length - 1) : inMemory.view(offset, length));
    assertThatThrownBy(() -> drain(SegmentReader.open(shortView, bytes.length)))
        .isExactlyInstanceOf(CorruptObjectException.class).hasMessageContaining("range read");
  }

  /**
   * Advancing over 100 000 records allocates nothing per record: the only allocations are the
   * block's range read and the decompression buffer (one block here), whatever the record count.
   */
  @Test
  void advancingAllocatesNothingPerRecord() {
    List<SegmentRecord> records = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      records.add(new SegmentRecord(i, 1_000 + i / 10, new byte[] {(byte) i, 1, 2, 3, 4, 5, 6, 7}));
    }
    TestSegments.Encoded e = TestSegments.encode(
        TestSegments.options(Codec.ZSTD, HashAlgorithm.XXH64, 4 * 1024 * 1024), records);
    SegmentReader segment = SegmentReader.open(RangeReader.ofBytes(e.bytes()), e.bytes().length);
    BlockInfo only = segment.blocks().get(0);
    assertThat(segment.blocks()).hasSize(1);
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (int round = 0; round < 5; round++) { // later rounds run compiled code
      long before = threads.getCurrentThreadAllocatedBytes();
      try (RecordCursor cursor = segment.cursor()) {
        while (cursor.next()) {
          sum += cursor.lsn() + cursor.timestampMs() + cursor.valueLength()
              + cursor.blockContent().get(cursor.valueOffset());
        }
      }
      long allocated = threads.getCurrentThreadAllocatedBytes() - before;
      long blockBuffers = only.rawSize() + only.storedSize() + 64;
      // 100 000 records: even 8 bytes each would be 800 KB over the budget.
      assertThat(allocated).as("round %d", round).isLessThan(blockBuffers + 64 * 1024);
    }
    assertThat(sum).isNotZero();
  }
}
