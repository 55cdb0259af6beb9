package dev.objlog.format.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.objlog.CorruptObjectException;
import dev.objlog.IntegrityException;
import dev.objlog.UnsupportedVersionException;
import dev.objlog.format.HashAlgorithm;
import dev.objlog.format.segment.SegmentCorpus.Vector;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * FORMAT.md §4.1: every single-byte corruption (XOR 0xFF) and every truncation of a segment must be
 * rejected with a typed objlog error by every decoding path, never by a stray runtime exception.
 * Exhaustive up to 64 KiB, a seeded sample of positions above that.
 */
class SegmentCorruptionSweepTests {
  private static final int EXHAUSTIVE_LIMIT = 64 * 1024;
  private static final int SAMPLES = 3000;
  private static final Set<Class<?>> TYPED = Set.of(
      CorruptObjectException.class, IntegrityException.class, UnsupportedVersionException.class);

  @TestFactory
  Stream<DynamicTest> corpusVectors() {
    Path dir = SegmentCorpus.directory();
    return SegmentCorpus.load(dir).vectors().stream().map((Vector v) -> DynamicTest.dynamicTest(
        v.name(), () -> sweep(v.name(), SegmentCorpus.bytes(dir, v), SegmentCorpus.ref(v), 1)));
  }

  @TestFactory
  Stream<DynamicTest> encodedSegments() {
    return Stream.of(
        DynamicTest.dynamicTest("none/xxh64 small", () -> sweepEncoded(Codec.NONE, HashAlgorithm.XXH64, 2_000, 500)),
        DynamicTest.dynamicTest("zstd/crc32c small", () -> sweepEncoded(Codec.ZSTD, HashAlgorithm.CRC32C, 2_500, 700)),
        DynamicTest.dynamicTest("zstd/xxh64 large, sampled", () -> sweepEncoded(Codec.ZSTD, HashAlgorithm.XXH64, 400_000, 16_384)),
        DynamicTest.dynamicTest("none/crc32c large, sampled", () -> sweepEncoded(Codec.NONE, HashAlgorithm.CRC32C, 150_000, 8_192)));
  }

  private static void sweepEncoded(Codec codec, HashAlgorithm hash, int bytes, int target) {
    TestSegments.Encoded e = TestSegments.encode(TestSegments.options(codec, hash, target),
        TestSegments.records(bytes, 1L << 40, bytes));
    sweep(codec + "/" + hash + " " + e.bytes().length + " B", e.bytes(), e.trailer().toRef(), bytes);
  }

  private static void sweep(String name, byte[] original, SegmentRef ref, long seed) {
    // The unmodified object must pass every path, or the sweep proves nothing.
    assertThat(readEveryWay(original, original.length, ref)).as("pristine " + name).isNull();
    Map<String, Integer> rejectedBy = new LinkedHashMap<>();
    int cases = 0;
    boolean exhaustive = original.length <= EXHAUSTIVE_LIMIT;
    SplittableRandom random = new SplittableRandom(seed);
    int flips = exhaustive ? original.length : SAMPLES;
    for (int i = 0; i < flips; i++) {
      int pos = exhaustive ? i : random.nextInt(original.length);
      byte[] mutated = original.clone();
      mutated[pos] ^= (byte) 0xFF;
      record(rejectedBy, name, "flip at " + pos, readEveryWay(mutated, mutated.length, ref));
      cases++;
    }
    int cuts = exhaustive ? original.length : SAMPLES / 3;
    for (int i = 0; i < cuts; i++) {
      int len = exhaustive ? i : random.nextInt(original.length);
      byte[] truncated = Arrays.copyOf(original, len);
      record(rejectedBy, name, "truncation to " + len, readEveryWay(truncated, len, ref));
      cases++;
    }
    System.out.println("segment corruption sweep " + name + ": " + cases + " cases rejected ("
        + (exhaustive ? "exhaustive" : "seeded sample") + "), by " + rejectedBy);
  }

  private static void record(Map<String, Integer> counts, String name, String what, Throwable thrown) {
    if (thrown == null) {
      fail(name + ": " + what + " was accepted by some decoding path");
    }
    counts.merge(thrown.getClass().getSimpleName(), 1, Integer::sum);
  }

  /**
   * Decodes {@code object} fully by every path; returns null if all accepted it, else the first
   * throwable after checking every path threw a typed error.
   */
  private static Throwable readEveryWay(byte[] object, long size, SegmentRef ref) {
    Throwable first = null;
    Throwable[] outcomes = {
        attempt(() -> readFully(SegmentReader.open(RangeReader.ofBytes(object), size,
            SegmentReaderOptions.defaults().withExpected(ref).withVerifySegmentHash(true)))),
        // Without reference or segment_hash every byte is still covered by a structural rule or a
        // block, index or trailer hash.
        attempt(() -> readFully(SegmentReader.open(RangeReader.ofBytes(object), size))),
        attempt(() -> SequentialSegmentReader.readAll(object)),
        attempt(() -> RecordCursorTests.drain(SegmentReader.open(RangeReader.ofBytes(object), size))),
    };
    int accepted = 0;
    for (Throwable t : outcomes) {
      if (t == null) {
        accepted++;
        continue;
      }
      if (!TYPED.contains(t.getClass())) {
        throw new AssertionError("untyped failure " + t, t);
      }
      if (first == null) {
        first = t;
      }
    }
    if (first != null && accepted > 0) {
      throw new AssertionError("some decoding paths accepted what another rejected: " + first, first);
    }
    return first;
  }

  private static void readFully(SegmentReader segment) {
    Iterator<SegmentRecord> it = segment.records();
    while (it.hasNext()) {
      it.next();
    }
    for (BlockInfo b : segment.blocks()) {
      segment.lsnForTimestamp(b.maxTimestampMs());
    }
  }

  private static Throwable attempt(Runnable r) {
    try {
      r.run();
      return null;
    } catch (Throwable t) {
      return t;
    }
  }
}
