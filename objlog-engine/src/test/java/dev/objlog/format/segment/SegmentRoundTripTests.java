package dev.objlog.format.segment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.format.HashAlgorithm;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded randomized round trips: random records, headers, block sizes, codecs, hash algorithms and
 * zstd levels, with LSNs anywhere in the u64 space up to 2^64−2. Every segment is decoded by ranged
 * reads, by seek and sequentially, and must give back exactly its input. The seed is in the test name
 * and in every assertion message.
 */
class SegmentRoundTripTests {

  static LongStream seeds() {
    return LongStream.rangeClosed(1, 60);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void encodedSegmentsDecodeToTheirInput(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    String at = "seed " + seed;
    Codec codec = random.nextBoolean() ? Codec.ZSTD : Codec.NONE;
    HashAlgorithm hash = random.nextBoolean() ? HashAlgorithm.XXH64 : HashAlgorithm.CRC32C;
    int level = random.nextInt(-5, 8);
    int target = switch (random.nextInt(4)) {
      case 0 -> random.nextInt(1, 64);
      case 1 -> random.nextInt(64, 4096);
      case 2 -> random.nextInt(4096, 128 * 1024);
      default -> SegmentFormat.DEFAULT_TARGET_BLOCK_SIZE;
    };
    int count = random.nextInt(1, 400);
    long base = switch (random.nextInt(4)) {
      case 0 -> 0;
      case 1 -> SegmentFormat.MAX_RECORD_LSN - (count - 1); // last record at 2^64-2
      case 2 -> random.nextLong(1L << 53, Long.MAX_VALUE) + random.nextLong(0, Long.MAX_VALUE);
      default -> random.nextLong(0, 1L << 40);
    };
    if (Long.compareUnsigned(base, SegmentFormat.MAX_RECORD_LSN - (count - 1)) > 0) {
      base = SegmentFormat.MAX_RECORD_LSN - (count - 1);
    }
    List<SegmentRecord> input = randomRecords(random, base, count);
    SegmentEncoderOptions options = new SegmentEncoderOptions(random.nextLong(0, 1L << 32), codec, hash,
        level, target, random.nextLong(), TestSegments.bytes16(random.nextInt(256)),
        TestSegments.bytes16(random.nextInt(256)));

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long encodedBytes = 0;
    long worstBeforeFinish;
    SegmentTrailer trailer;
    try (SegmentEncoder encoder = new SegmentEncoder(options, out::write)) {
      for (SegmentRecord r : input) {
        encoder.append(r);
        encodedBytes += SegmentEncoder.encodedSize(r);
        assertThat(encoder.bytesWritten()).as(at).isEqualTo(out.size());
      }
      worstBeforeFinish = encoder.worstCaseFinishedSize();
      trailer = encoder.finish();
    }
    byte[] bytes = out.toByteArray();
    assertThat(trailer.totalSize()).as(at).isEqualTo(bytes.length);
    assertThat(worstBeforeFinish).as(at + " worst case before finish").isGreaterThanOrEqualTo(bytes.length);
    assertThat(SegmentEncoder.worstCaseSegmentSize(count, encodedBytes, target, codec))
        .as(at + " static worst case").isGreaterThanOrEqualTo(bytes.length);
    assertThat(trailer.baseLsn()).as(at).isEqualTo(base);
    assertThat(trailer.lastLsn()).as(at).isEqualTo(base + count - 1);
    assertThat(trailer.recordCount()).as(at).isEqualTo(count);

    CountingRangeReader reader = new CountingRangeReader(bytes);
    SegmentReader segment = SegmentReader.open(reader, bytes.length,
        SegmentReaderOptions.defaults().withExpected(trailer.toRef()).withVerifySegmentHash(random.nextBoolean()));
    assertThat(segment.trailer()).as(at).isEqualTo(trailer);
    assertThat(SegmentConformanceTests.collect(segment.records())).as(at).containsExactlyElementsOf(input);
    assertThat(SequentialSegmentReader.readAll(bytes)).as(at).containsExactlyElementsOf(input);
    assertThat(RecordCursorTests.viewedRecords(segment, base)).as(at + " cursor").containsExactlyElementsOf(input);
    assertBlocksSealedLikeTheGoWriter(segment.blocks(), input, target, at);

    for (int probe = 0; probe < 20; probe++) {
      int i = random.nextInt(count);
      Iterator<SegmentRecord> it = segment.records(input.get(i).lsn());
      List<SegmentRecord> rest = new ArrayList<>();
      it.forEachRemaining(rest::add);
      assertThat(rest).as(at + " seek to record " + i).containsExactlyElementsOf(input.subList(i, count));
      assertThat(RecordCursorTests.viewedRecords(segment, input.get(i).lsn()))
          .as(at + " cursor seek to record " + i).containsExactlyElementsOf(input.subList(i, count));

      long ts = input.get(random.nextInt(count)).timestampMs() + random.nextInt(-2, 3);
      OptionalLong want = input.stream().filter(r -> r.timestampMs() >= ts).mapToLong(SegmentRecord::lsn).findFirst();
      assertThat(segment.lsnForTimestamp(ts)).as(at + " timestamp " + ts).isEqualTo(want);
    }
  }

  /** Greedy sealing (FORMAT.md §1.10) recomputed from record sizes alone, for either codec. */
  private static void assertBlocksSealedLikeTheGoWriter(
      List<BlockInfo> blocks, List<SegmentRecord> input, int target, String at) {
    List<Long> expectedCounts = new ArrayList<>();
    List<Long> expectedRaw = new ArrayList<>();
    long raw = 0;
    long n = 0;
    for (SegmentRecord r : input) {
      long size = SegmentEncoder.encodedSize(r);
      if (n > 0 && (raw + size > target || raw + size > SegmentFormat.MAX_RAW_BLOCK_SIZE)) {
        expectedCounts.add(n);
        expectedRaw.add(raw);
        raw = 0;
        n = 0;
      }
      raw += size;
      n++;
    }
    expectedCounts.add(n);
    expectedRaw.add(raw);
    assertThat(blocks.stream().map(BlockInfo::recordCount).toList()).as(at).isEqualTo(expectedCounts);
    assertThat(blocks.stream().map(BlockInfo::rawSize).toList()).as(at).isEqualTo(expectedRaw);
  }

  static List<SegmentRecord> randomRecords(SplittableRandom random, long base, int count) {
    List<SegmentRecord> records = new ArrayList<>(count);
    long ts = random.nextBoolean() ? random.nextLong(-1_000_000, 1_000_000) : 1_776_000_000_000L;
    boolean compressible = random.nextBoolean();
    for (int i = 0; i < count; i++) {
      ts += random.nextInt(4) == 0 ? 0 : random.nextInt(1, 1000);
      int headerCount = random.nextInt(4) == 0 ? random.nextInt(0, 8) : 0;
      List<RecordHeader> headers = new ArrayList<>();
      for (int h = 0; h < headerCount; h++) {
        headers.add(new RecordHeader(bytes(random, random.nextInt(1, 24), false),
            bytes(random, random.nextInt(5) == 0 ? 0 : random.nextInt(0, 40), false)));
      }
      int valueLen = switch (random.nextInt(10)) {
        case 0 -> 0;
        case 1 -> random.nextInt(16 * 1024, 80 * 1024);
        default -> random.nextInt(1, 1500);
      };
      records.add(new SegmentRecord(base + i, ts, headers, bytes(random, valueLen, compressible)));
    }
    return records;
  }

  private static byte[] bytes(SplittableRandom random, int len, boolean compressible) {
    byte[] b = new byte[len];
    if (compressible) {
      for (int i = 0; i < len; i++) {
        b[i] = (byte) random.nextInt(4);
      }
    } else {
      random.nextBytes(b);
    }
    return b;
  }
}
