package dev.objlog.format.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.InvalidArgumentException;
import dev.objlog.format.HashAlgorithm;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The split encoder path a pipelined writer uses (records → {@link RawBlockBuilder} → {@link
 * BlockSealer}s on several threads, in shuffled order → {@link SegmentAssembler} in block order)
 * against the sequential {@link SegmentEncoder}, over seeded random inputs: byte-identical segments
 * for codec none (the Go-stable layout), and for zstd the same decoded records and trailer layout
 * (and, with one zstd-jni build and level, the same bytes: zstd output is a function of input and
 * parameters, though only decoding is a format contract).
 */
class SegmentPipelineTests {
  private static ExecutorService pool;

  @BeforeAll
  static void startPool() {
    pool = Executors.newFixedThreadPool(3);
  }

  @AfterAll
  static void stopPool() {
    pool.shutdownNow();
  }

  static LongStream seeds() {
    return LongStream.rangeClosed(1, 40);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void theSplitPathWritesWhatTheSequentialEncoderWrites(long seed) throws Exception {
    SplittableRandom random = new SplittableRandom(seed * 7919);
    String at = "seed " + seed;
    Codec codec = seed % 2 == 0 ? Codec.NONE : Codec.ZSTD;
    HashAlgorithm hash = random.nextBoolean() ? HashAlgorithm.XXH64 : HashAlgorithm.CRC32C;
    int target = switch (random.nextInt(4)) {
      case 0 -> random.nextInt(1, 64);
      case 1 -> random.nextInt(64, 4096);
      case 2 -> random.nextInt(4096, 128 * 1024);
      default -> SegmentFormat.DEFAULT_TARGET_BLOCK_SIZE;
    };
    int count = random.nextInt(1, 400);
    long base = random.nextBoolean() ? random.nextLong(0, 1L << 40) : SegmentFormat.MAX_RECORD_LSN - (count - 1);
    List<SegmentRecord> input = SegmentRoundTripTests.randomRecords(random, base, count);
    SegmentEncoderOptions options = new SegmentEncoderOptions(random.nextLong(0, 1L << 32), codec, hash,
        random.nextInt(-3, 6), target, random.nextLong(), TestSegments.bytes16(random.nextInt(256)),
        TestSegments.bytes16(random.nextInt(256)));

    TestSegments.Encoded sequential = TestSegments.encode(options, input);

    // Split: close blocks, seal them on several threads in random order, place them in order.
    RawBlockBuilder builder = new RawBlockBuilder(target);
    List<RawBlock> raw = new ArrayList<>();
    for (SegmentRecord r : input) {
      RawBlock closed = builder.append(r);
      if (closed != null) {
        raw.add(closed);
      }
    }
    raw.add(builder.takeOpenBlock());
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < raw.size(); i++) {
      order.add(i);
    }
    Collections.shuffle(order, new Random(seed));
    ThreadLocal<BlockSealer> sealers = ThreadLocal.withInitial(() -> BlockSealer.of(options));
    List<Future<SealedBlock>> futures = new ArrayList<>(Collections.nCopies(raw.size(), null));
    for (int i : order) {
      futures.set(i, pool.submit(() -> sealers.get().seal(raw.get(i))));
    }
    List<SealedBlock> sealed = new ArrayList<>();
    for (Future<SealedBlock> f : futures) {
      sealed.add(f.get());
    }
    for (int i = 0; i < sealed.size(); i++) {
      assertThat(sealed.get(i).index()).as(at).isEqualTo(i);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    SegmentAssembler assembler = new SegmentAssembler(options, out::write);
    for (SealedBlock b : sealed) {
      assembler.add(b);
      assertThat(assembler.bytesWritten()).as(at).isEqualTo(out.size());
    }
    SegmentTrailer trailer = assembler.finish();
    byte[] split = out.toByteArray();

    assertThat(trailer.totalSize()).as(at).isEqualTo(split.length);
    if (codec == Codec.NONE) {
      assertThat(split).as(at + ": codec none is byte-stable").isEqualTo(sequential.bytes());
      assertThat(trailer).as(at).isEqualTo(sequential.trailer());
    }
    SegmentReader reader = SegmentReader.open(RangeReader.ofBytes(split), split.length,
        SegmentReaderOptions.defaults().withExpected(trailer.toRef()).withVerifySegmentHash(true));
    assertThat(SegmentConformanceTests.collect(reader.records())).as(at).containsExactlyElementsOf(input);
    SegmentReader reference = SegmentReader.open(RangeReader.ofBytes(sequential.bytes()), sequential.bytes().length);
    assertThat(reader.blocks().stream().map(BlockInfo::rawSize).toList()).as(at + " same block boundaries")
        .isEqualTo(reference.blocks().stream().map(BlockInfo::rawSize).toList());
    assertThat(split).as(at + ": same zstd-jni, same level, same bytes").isEqualTo(sequential.bytes());

    // The same sealed blocks, assembled again (a retried upload), give the same bytes.
    ByteArrayOutputStream again = new ByteArrayOutputStream();
    SegmentAssembler second = new SegmentAssembler(options, again::write);
    sealed.forEach(second::add);
    assertThat(second.finish()).as(at).isEqualTo(trailer);
    assertThat(again.toByteArray()).as(at).isEqualTo(split);
  }

  private static SegmentEncoderOptions options(Codec codec, int target) {
    return TestSegments.options(codec, HashAlgorithm.XXH64, target);
  }

  private static List<SealedBlock> sealAll(SegmentEncoderOptions options, List<SegmentRecord> records) {
    RawBlockBuilder builder = new RawBlockBuilder(options.targetBlockSize());
    List<SealedBlock> out = new ArrayList<>();
    try (BlockSealer sealer = BlockSealer.of(options)) {
      for (SegmentRecord r : records) {
        RawBlock closed = builder.append(r);
        if (closed != null) {
          out.add(sealer.seal(closed));
        }
      }
      RawBlock last = builder.takeOpenBlock();
      if (last != null) {
        out.add(sealer.seal(last));
      }
    }
    return out;
  }

  @Test
  void theBuilderClosesBlocksByTheSealingRuleAndRejectsWithoutChange() {
    RawBlockBuilder b = new RawBlockBuilder(100);
    assertThat(b.takeOpenBlock()).isNull();
    assertThat(b.append(new SegmentRecord(1, 5, new byte[10]))).isNull();
    assertThatThrownBy(() -> b.append(new SegmentRecord(3, 5, new byte[10])))
        .isExactlyInstanceOf(InvalidArgumentException.class).hasMessageContaining("non-contiguous");
    assertThatThrownBy(() -> b.append(new SegmentRecord(2, 4, new byte[10])))
        .isExactlyInstanceOf(InvalidArgumentException.class).hasMessageContaining("timestamp");
    assertThat(b.recordCount()).isEqualTo(1);
    assertThat(b.openBlockBytes()).isEqualTo(26);
    RawBlock first = b.append(new SegmentRecord(2, 6, new byte[500]));
    assertThat(first).isNotNull();
    assertThat(first.index()).isZero();
    assertThat(first.rawSize()).isEqualTo(26);
    assertThat(first.recordCount()).isEqualTo(1);
    assertThat(first.minTimestampMs()).isEqualTo(5);
    RawBlock second = b.append(new SegmentRecord(3, 7, new byte[10]));
    assertThat(second.index()).isEqualTo(1);
    assertThat(second.rawSize()).isEqualTo(516);
    assertThat(second.baseLsn()).isEqualTo(2);
    RawBlock third = b.takeOpenBlock();
    assertThat(third.index()).isEqualTo(2);
    assertThat(third.lastLsn()).isEqualTo(3);
    assertThat(third.maxTimestampMs()).isEqualTo(7);
    assertThat(b.blocksClosed()).isEqualTo(3);
  }

  @Test
  void aValueInABufferIsFramedLikeAValueInAnArrayAndTheBufferIsNotMoved() {
    List<SegmentRecord> records = TestSegments.records(5, 100, 30_000);
    RawBlockBuilder arrays = new RawBlockBuilder(4096);
    RawBlockBuilder buffers = new RawBlockBuilder(4096);
    for (SegmentRecord r : records) {
      java.nio.ByteBuffer view = java.nio.ByteBuffer.wrap(r.value()).asReadOnlyBuffer();
      RawBlock a = arrays.append(r);
      RawBlock b = buffers.append(r.lsn(), r.timestampMs(), r.headers(), view);
      assertThat(view.position()).isZero();
      assertThat(b == null).isEqualTo(a == null);
      if (a != null) {
        assertSameContent(a, b);
      }
    }
    assertSameContent(arrays.takeOpenBlock(), buffers.takeOpenBlock());
    assertThatThrownBy(() -> buffers.append(5, 0, List.of(), java.nio.ByteBuffer.allocate(1)))
        .isExactlyInstanceOf(InvalidArgumentException.class);
  }

  private static void assertSameContent(RawBlock a, RawBlock b) {
    assertThat(b.rawSize()).isEqualTo(a.rawSize());
    assertThat(b.recordCount()).isEqualTo(a.recordCount());
    assertThat(java.util.Arrays.copyOfRange(b.buffer(), 64, 64 + b.rawSize()))
        .isEqualTo(java.util.Arrays.copyOfRange(a.buffer(), 64, 64 + a.rawSize()));
  }

  @Test
  void theAssemblerRefusesBlocksOutOfOrderAndWritesNothingForThem() {
    List<SegmentRecord> records = TestSegments.records(7, 10, 20_000);
    List<SealedBlock> blocks = sealAll(options(Codec.ZSTD, 1000), records);
    assertThat(blocks).hasSizeGreaterThan(3);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    SegmentAssembler a = new SegmentAssembler(options(Codec.ZSTD, 1000), out::write);
    a.add(blocks.get(0));
    int size = out.size();
    assertThatThrownBy(() -> a.add(blocks.get(2))).isExactlyInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("expected");
    assertThatThrownBy(() -> a.add(blocks.get(0))).isExactlyInstanceOf(InvalidArgumentException.class);
    assertThat(out.size()).isEqualTo(size);
    for (int i = 1; i < blocks.size(); i++) {
      a.add(blocks.get(i));
    }
    SegmentTrailer t = a.finish();
    assertThat(out.toByteArray()).isEqualTo(TestSegments.encode(options(Codec.ZSTD, 1000), records).bytes());
    assertThat(t.recordCount()).isEqualTo(records.size());
    assertThatThrownBy(() -> a.add(blocks.get(0))).hasMessageContaining("finished");
  }

  @Test
  void theAssemblerRefusesAnotherCodecAndEmptySegments() {
    List<SealedBlock> none = sealAll(options(Codec.NONE, 1000), TestSegments.records(3, 0, 500));
    SegmentAssembler a = new SegmentAssembler(options(Codec.ZSTD, 1000), (b, o, l) -> { });
    assertThatThrownBy(() -> a.add(none.get(0))).isExactlyInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("NONE");
    SegmentAssembler empty = new SegmentAssembler(options(Codec.NONE, 1000), (b, o, l) -> { });
    assertThatThrownBy(empty::finish).isExactlyInstanceOf(InvalidArgumentException.class);
    empty.begin(5);
    assertThatThrownBy(empty::finish).isExactlyInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("at least one record");
  }

  @Test
  void aSealedZstdBlockOwnsAnArrayOfExactlyItsSize() {
    List<SealedBlock> blocks = sealAll(options(Codec.ZSTD, 4096), TestSegments.records(11, 0, 40_000));
    for (SealedBlock b : blocks) {
      assertThat(b.bytes()).hasSize(b.length());
      assertThat(b.storedSize()).isLessThan(b.rawSize());
    }
    assertThat(blocks.get(0).bytes()).isNotSameAs(blocks.get(1).bytes());
  }
}
