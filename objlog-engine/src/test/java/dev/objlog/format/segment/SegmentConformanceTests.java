package dev.objlog.format.segment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.format.segment.CountingRangeReader.Range;
import dev.objlog.format.segment.SegmentCorpus.Manifest;
import dev.objlog.format.segment.SegmentCorpus.Vector;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * FORMAT.md §4.1 against the reference corpus: every vector of whatever corpus directory the
 * system property names, opened only through its segment_ref with ranged reads.
 */
class SegmentConformanceTests {

  @Test
  void manifestListsVectorsAndIsParsedStrictly() {
    Manifest manifest = SegmentCorpus.load(SegmentCorpus.directory());
    assertThat(manifest.vectors()).isNotEmpty();
    for (Vector v : manifest.vectors()) {
      assertThat(v.records()).as(v.name() + " records").isNotEmpty();
      assertThat(v.blocks()).as(v.name() + " blocks").isNotEmpty();
    }
  }

  @TestFactory
  Stream<DynamicContainer> everyVectorConforms() {
    Path dir = SegmentCorpus.directory();
    Manifest manifest = SegmentCorpus.load(dir);
    return manifest.vectors().stream().map(v -> DynamicContainer.dynamicContainer(v.name(), Stream.of(
        DynamicTest.dynamicTest("file sha256", () -> sha256Matches(dir, v)),
        DynamicTest.dynamicTest("open through segment_ref, every field", () -> fieldsMatch(dir, v)),
        DynamicTest.dynamicTest("every record", () -> recordsMatch(dir, v)),
        DynamicTest.dynamicTest("seek by LSN into every block", () -> seekByLsn(dir, v)),
        DynamicTest.dynamicTest("seek by timestamp into every block", () -> seekByTimestamp(dir, v)),
        DynamicTest.dynamicTest("re-encode", () -> reencode(dir, v)))));
  }

  private static void sha256Matches(Path dir, Vector v) throws NoSuchAlgorithmException {
    byte[] digest = MessageDigest.getInstance("SHA-256").digest(SegmentCorpus.bytes(dir, v));
    assertThat(HexFormat.of().formatHex(digest)).isEqualTo(v.fileSha256());
  }

  private static SegmentReader open(CountingRangeReader reader, Vector v) {
    SegmentRef ref = SegmentCorpus.ref(v);
    return SegmentReader.open(reader, ref.sizeBytes(), SegmentReaderOptions.defaults().withExpected(ref));
  }

  private static void fieldsMatch(Path dir, Vector v) {
    byte[] bytes = SegmentCorpus.bytes(dir, v);
    CountingRangeReader reader = new CountingRangeReader(bytes);
    SegmentRef ref = SegmentCorpus.ref(v);
    SegmentReader segment = open(reader, v);

    // Exactly trailer, file preamble, index: nothing else is fetched to open.
    assertThat(reader.reads()).containsExactly(
        new Range(ref.sizeBytes() - SegmentFormat.TRAILER_SIZE, SegmentFormat.TRAILER_SIZE),
        new Range(0, SegmentFormat.FILE_PREAMBLE_SIZE),
        new Range(ref.blockIndexOffset(), (int) ref.blockIndexLength()));

    SegmentTrailer t = segment.trailer();
    assertThat(t.toRef()).isEqualTo(ref);
    assertThat(t.partition()).isEqualTo(v.segmentRef().partition());
    assertThat(t.codec().id()).isEqualTo(v.segmentRef().codec().id());
    assertThat(t.codec().wireName()).isEqualTo(v.segmentRef().codec().name());
    assertThat(t.hashAlgorithm().id()).isEqualTo(v.segmentRef().hashAlgorithm().id());
    assertThat(t.hashAlgorithm().wireName()).isEqualTo(v.segmentRef().hashAlgorithm().name());
    assertThat(t.recordFormat()).isEqualTo(v.segmentRef().recordFormat().id());
    assertThat(v.segmentRef().recordFormat().name()).isEqualTo("v1");
    assertThat(t.createdUnixMs()).isEqualTo(v.writer().createdUnixMs());
    assertThat(t.segmentUuid()).isEqualTo(SegmentCorpus.id(v.writer().segmentUuid()));
    assertThat(t.writerTag()).isEqualTo(SegmentCorpus.id(v.writer().writerTag()));
    assertThat(t.totalSize()).isEqualTo(bytes.length);

    FilePreamble p = segment.preamble();
    assertThat(p).isEqualTo(new FilePreamble(ref.partition(), ref.codec(), ref.hashAlgorithm(),
        SegmentFormat.RECORD_FORMAT_V1, ref.baseLsn(), ref.segmentUuid(), ref.writerTag()));

    List<BlockInfo> expectedBlocks = SegmentCorpus.blocks(v);
    assertThat(segment.blocks()).containsExactlyElementsOf(expectedBlocks);
    for (int i = 0; i < expectedBlocks.size(); i++) {
      reader.reset();
      DecodedBlock block = segment.readBlock(i);
      BlockInfo e = expectedBlocks.get(i);
      assertThat(block.info()).isEqualTo(e);
      // One range read per block: its preamble and stored bytes, nothing more.
      assertThat(reader.reads()).containsExactly(new Range(e.offset(), 64 + (int) e.storedSize()));
      // The block preamble on disk carries the same fields as the manifest's block.
      BlockInfo onDisk = Layout.parseBlockPreamble(bytes, (int) e.offset(), e.offset(), ref.codec());
      assertThat(onDisk).isEqualTo(e);
    }

    // segment_hash over the body, and the sequential path over the same bytes.
    SegmentReader.open(new CountingRangeReader(bytes), bytes.length,
        SegmentReaderOptions.defaults().withExpected(ref).withVerifySegmentHash(true));
    SequentialSegmentReader sequential = new SequentialSegmentReader(bytes);
    List<BlockInfo> seen = new ArrayList<>();
    for (DecodedBlock b = sequential.nextBlock(); b != null; b = sequential.nextBlock()) {
      seen.add(b.info());
    }
    assertThat(seen).containsExactlyElementsOf(expectedBlocks);
    assertThat(sequential.trailer()).isEqualTo(t);
    assertThat(sequential.preamble()).isEqualTo(p);
  }

  private static void recordsMatch(Path dir, Vector v) {
    byte[] bytes = SegmentCorpus.bytes(dir, v);
    List<SegmentRecord> expected = SegmentCorpus.records(v);
    SegmentReader segment = open(new CountingRangeReader(bytes), v);

    List<SegmentRecord> byBlock = new ArrayList<>();
    for (int i = 0; i < segment.blocks().size(); i++) {
      List<SegmentRecord> records = segment.readBlock(i).records();
      BlockInfo info = segment.blocks().get(i);
      assertThat(records).hasSize((int) info.recordCount());
      byBlock.addAll(records);
    }
    assertThat(byBlock).containsExactlyElementsOf(expected);
    assertThat(collect(segment.records())).containsExactlyElementsOf(expected);
    assertThat(RecordCursorTests.viewedRecords(segment, segment.trailer().baseLsn()))
        .containsExactlyElementsOf(expected);
    assertThat(SequentialSegmentReader.readAll(bytes)).containsExactlyElementsOf(expected);
    for (int i = 0; i < expected.size(); i++) {
      SegmentRecord e = expected.get(i);
      SegmentRecord a = byBlock.get(i);
      assertThat(Long.toUnsignedString(a.lsn())).isEqualTo(v.records().get(i).lsn());
      assertThat(a.timestampMs()).isEqualTo(e.timestampMs());
      assertThat(a.headers()).containsExactlyElementsOf(e.headers());
      assertThat(a.value()).isEqualTo(e.value());
    }
  }

  private static void seekByLsn(Path dir, Vector v) {
    byte[] bytes = SegmentCorpus.bytes(dir, v);
    List<SegmentRecord> expected = SegmentCorpus.records(v);
    CountingRangeReader reader = new CountingRangeReader(bytes);
    SegmentReader segment = open(reader, v);
    List<BlockInfo> blocks = SegmentCorpus.blocks(v);
    for (int b = 0; b < blocks.size(); b++) {
      BlockInfo block = blocks.get(b);
      for (long k = 0; k < block.recordCount(); k++) {
        long lsn = block.baseLsn() + k;
        assertThat(segment.blockIndexForLsn(lsn)).isEqualTo(b);
        reader.reset();
        Iterator<SegmentRecord> it = segment.records(lsn);
        SegmentRecord first = it.next();
        assertThat(first.lsn()).isEqualTo(lsn);
        // The seek fetched only the block holding the LSN.
        assertThat(reader.reads()).containsExactly(new Range(block.offset(), 64 + (int) block.storedSize()));
        int index = expected.indexOf(first);
        assertThat(index).isNotNegative();
        List<SegmentRecord> rest = new ArrayList<>(List.of(first));
        it.forEachRemaining(rest::add);
        assertThat(rest).containsExactlyElementsOf(expected.subList(index, expected.size()));
        reader.reset();
        try (RecordCursor cursor = segment.cursor(lsn)) {
          assertThat(cursor.next()).isTrue();
          assertThat(cursor.lsn()).isEqualTo(lsn);
          assertThat(cursor.block()).isEqualTo(block);
          assertThat(reader.reads()).containsExactly(new Range(block.offset(), 64 + (int) block.storedSize()));
        }
        assertThat(RecordCursorTests.viewedRecords(segment, lsn))
            .containsExactlyElementsOf(expected.subList(index, expected.size()));
      }
    }
    SegmentTrailer t = segment.trailer();
    assertThat(segment.records(t.lastLsn() + 1).hasNext()).isFalse();
    assertThat(segment.blockIndexForLsn(t.lastLsn() + 1)).isEqualTo(-1);
    if (t.baseLsn() != 0) {
      assertThat(segment.records(t.baseLsn() - 1).next()).isEqualTo(expected.get(0));
      assertThat(segment.records(0).next()).isEqualTo(expected.get(0));
    }
  }

  private static void seekByTimestamp(Path dir, Vector v) {
    byte[] bytes = SegmentCorpus.bytes(dir, v);
    List<SegmentRecord> expected = SegmentCorpus.records(v);
    SegmentReader segment = open(new CountingRangeReader(bytes), v);
    List<Long> probes = new ArrayList<>();
    for (BlockInfo block : SegmentCorpus.blocks(v)) {
      probes.add(block.minTimestampMs());
      probes.add(block.minTimestampMs() + 1);
      probes.add(block.maxTimestampMs());
      probes.add(block.maxTimestampMs() + 1);
    }
    for (SegmentRecord r : expected) {
      probes.add(r.timestampMs());
      probes.add(r.timestampMs() - 1);
    }
    probes.add(Long.MIN_VALUE);
    probes.add(Long.MAX_VALUE);
    for (long probe : probes) {
      OptionalLong want = expected.stream()
          .filter(r -> r.timestampMs() >= probe)
          .mapToLong(SegmentRecord::lsn)
          .findFirst();
      assertThat(segment.lsnForTimestamp(probe)).as("timestamp %d", probe).isEqualTo(want);
    }
  }

  private static void reencode(Path dir, Vector v) {
    byte[] bytes = SegmentCorpus.bytes(dir, v);
    SegmentRef ref = SegmentCorpus.ref(v);
    SegmentEncoderOptions options = new SegmentEncoderOptions(ref.partition(), ref.codec(),
        ref.hashAlgorithm(), SegmentEncoderOptions.DEFAULT_ZSTD_LEVEL, v.writer().targetBlockSize(),
        v.writer().createdUnixMs(), SegmentCorpus.id(v.writer().segmentUuid()),
        SegmentCorpus.id(v.writer().writerTag()));
    List<SegmentRecord> records = SegmentCorpus.records(v);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    SegmentTrailer trailer;
    try (SegmentEncoder encoder = new SegmentEncoder(options, out::write)) {
      records.forEach(encoder::append);
      trailer = encoder.finish();
    }
    byte[] encoded = out.toByteArray();
    if (v.writerByteStable()) {
      assertThat(HexFormat.of().formatHex(encoded)).isEqualTo(HexFormat.of().formatHex(bytes));
      assertThat(trailer.toRef()).isEqualTo(ref);
    } else {
      // zstd output is a decode contract only: same layout and records, any valid frames.
      assertThat(trailer.blockCount()).isEqualTo(ref.blockCount());
      assertThat(trailer.recordCount()).isEqualTo(ref.recordCount());
      SegmentReader again = SegmentReader.open(RangeReader.ofBytes(encoded), encoded.length,
          SegmentReaderOptions.defaults().withExpected(trailer.toRef()).withVerifySegmentHash(true));
      assertThat(collect(again.records())).containsExactlyElementsOf(records);
      List<BlockInfo> want = SegmentCorpus.blocks(v);
      for (int i = 0; i < want.size(); i++) {
        BlockInfo mine = again.blocks().get(i);
        assertThat(mine.rawSize()).isEqualTo(want.get(i).rawSize());
        assertThat(mine.recordCount()).isEqualTo(want.get(i).recordCount());
        assertThat(mine.baseLsn()).isEqualTo(want.get(i).baseLsn());
      }
    }
  }

  static List<SegmentRecord> collect(Iterator<SegmentRecord> it) {
    List<SegmentRecord> out = new ArrayList<>();
    it.forEachRemaining(out::add);
    return out;
  }
}
