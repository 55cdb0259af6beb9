package dev.objlog.format.catalog;

import static dev.objlog.format.catalog.CatalogFormat.MAX_RECORD_LSN;

import dev.objlog.format.HashAlgorithm;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Builds random but valid catalog objects from a seed: random limits, counts and sections, and
 * unsigned extremes (LSNs up to 2^64−2, next_lsn 2^64−1, epochs and generations up to 2^64−1,
 * timestamps down to Long.MIN_VALUE).
 */
final class RandomCatalog {
  private final SplittableRandom random;

  RandomCatalog(long seed) {
    random = new SplittableRandom(seed);
  }

  SplittableRandom random() {
    return random;
  }

  // ---------------------------------------------------------------- scalars

  /** Uniform in [lo, hi], unsigned, for lo ≤ hi. */
  long between(long lo, long hi) {
    long width = hi - lo;
    if (width == -1L) {
      return random.nextLong();
    }
    return lo + Long.remainderUnsigned(random.nextLong(), width + 1);
  }

  /** A u64 in [1, 2^64−1], often an extreme. */
  long positiveU64() {
    return switch (random.nextInt(6)) {
      case 0 -> 1;
      case 1 -> -1L;
      case 2 -> Long.MAX_VALUE;
      case 3 -> between(1, 1000);
      default -> between(1, -1L);
    };
  }

  long anyU64() {
    return random.nextInt(8) == 0 ? 0 : positiveU64();
  }

  int count(int max) {
    if (max <= 0) {
      return 0;
    }
    return switch (random.nextInt(5)) {
      case 0 -> max;
      case 1 -> 0;
      default -> random.nextInt(Math.min(max, 8) + 1);
    };
  }

  HashAlgorithm algorithm() {
    return random.nextBoolean() ? HashAlgorithm.XXH64 : HashAlgorithm.CRC32C;
  }

  Id128 id() {
    byte[] bytes = new byte[Id128.SIZE];
    do {
      random.nextBytes(bytes);
    } while (Id128.of(bytes).isZero());
    return Id128.of(bytes);
  }

  Key256 key() {
    byte[] bytes = new byte[Key256.SIZE];
    random.nextBytes(bytes);
    bytes[random.nextInt(Key256.SIZE)] |= 1;
    return Key256.of(bytes);
  }

  private long timestampStart() {
    return switch (random.nextInt(4)) {
      case 0 -> Long.MIN_VALUE;
      case 1 -> -between(0, 1L << 40);
      case 2 -> 0;
      default -> 1_700_000_000_000L + random.nextInt(1_000_000);
    };
  }

  /** Non-decreasing timestamps: each item gets [min, max] with min ≥ the previous max. */
  private final class Clock {
    long now = timestampStart();

    long[] next() {
      long min = now + random.nextInt(3);
      long max = min + random.nextInt(1000);
      now = max;
      return new long[] {min, max};
    }
  }

  /** LSN spans for {@code n} items summing to at most the room left below next_lsn 2^64−1. */
  private long[] spans(int n, long[] minimums) {
    long[] spans = new long[n];
    long room = MAX_RECORD_LSN; // total LSNs available: [0, 2^64−2]
    for (int i = 0; i < n; i++) {
      room -= minimums[i];
    }
    for (int i = 0; i < n; i++) {
      long extra =
          switch (random.nextInt(6)) {
            case 0 -> 0;
            case 1 -> between(0, Math.max(0, Math.min(room, 1L << 40)));
            case 2 -> Long.compareUnsigned(room, 1L << 62) > 0 ? between(0, 1L << 62) : 0;
            default -> random.nextInt(1000);
          };
      if (Long.compareUnsigned(extra, room) > 0) {
        extra = 0;
      }
      room -= extra;
      spans[i] = minimums[i] + extra;
    }
    return spans;
  }

  /**
   * A first LSN for consecutive ranges of these spans. Pages may end at 2^64−2; heads stop one
   * short, because the Go validator refuses a last segment ending at 2^64−2 (next_lsn would be
   * the reserved 2^64−1).
   */
  private long start(long[] spans, boolean forHead) {
    long total = 0;
    for (long span : spans) {
      total += span;
    }
    long highestStart = (forHead ? MAX_RECORD_LSN - 1 : MAX_RECORD_LSN) - total + 1;
    return switch (random.nextInt(3)) {
      case 0 -> 0;
      case 1 -> highestStart;
      default -> between(0, highestStart);
    };
  }

  // ---------------------------------------------------------------- entries

  LeafEntry leaf(long base, long last, long minTs, long maxTs, long epoch) {
    return new LeafEntry(
        base,
        last,
        minTs,
        maxTs,
        last - base + 1,
        between(1, 0xFFFF_FFFFL),
        positiveU64(),
        anyU64(),
        between(1, 0xFFFF_FFFFL),
        random.nextInt(2),
        random.nextInt(2),
        random.nextLong(),
        random.nextLong(),
        epoch,
        id(),
        id());
  }

  /** Sorted (unsigned) epochs in [1, ceiling]. */
  private long[] epochs(int n, long ceiling) {
    long[] epochs = new long[n];
    for (int i = 0; i < n; i++) {
      epochs[i] = between(1, ceiling);
    }
    Long[] boxed = new Long[n];
    for (int i = 0; i < n; i++) {
      boxed[i] = epochs[i];
    }
    java.util.Arrays.sort(boxed, Long::compareUnsigned);
    for (int i = 0; i < n; i++) {
      epochs[i] = boxed[i];
    }
    return epochs;
  }

  private List<LeafEntry> leaves(int n, long epochCeiling, Clock clock, long[] spans, long start) {
    long[] epochs = epochs(n, epochCeiling);
    List<LeafEntry> entries = new ArrayList<>(n);
    long base = start;
    for (int i = 0; i < n; i++) {
      long[] ts = clock.next();
      long last = base + spans[i] - 1;
      entries.add(leaf(base, last, ts[0], ts[1], epochs[i]));
      base = last + 1;
    }
    return entries;
  }

  /** Leaf spans must fit record_count's 32 bits. */
  private long[] leafSpans(int n) {
    long[] spans = new long[n];
    for (int i = 0; i < n; i++) {
      spans[i] = random.nextInt(8) == 0 ? between(1, 0xFFFF_FFFFL) : between(1, 100);
    }
    return spans;
  }

  private record RefShape(long entryCount, long segmentCount) {}

  private RefShape refShape(int childLevel) {
    long entries = random.nextInt(4) == 0 ? CatalogFormat.MAX_INDEX_ENTRIES : between(1, 16);
    long segments = childLevel == 0 ? entries : entries + between(0, entries * 1000);
    return new RefShape(entries, segments);
  }

  private List<IndexEntry> refsOver(
      RefShape[] shapes, int childLevel, long generationCeiling, Clock clock, long[] spans, long start) {
    List<IndexEntry> refs = new ArrayList<>(shapes.length);
    long lo = start;
    for (int i = 0; i < shapes.length; i++) {
      long[] ts = clock.next();
      long hi = lo + spans[i] - 1;
      refs.add(
          new IndexEntry(
              childLevel,
              shapes[i].entryCount(),
              lo,
              hi,
              ts[0],
              ts[1],
              between(1, generationCeiling),
              id(),
              shapes[i].segmentCount()));
      lo = hi + 1;
    }
    return refs;
  }

  // ---------------------------------------------------------------- objects

  LeafPage leafPage(int partition, Key256 streamKey) {
    int n = random.nextInt(10) == 0 ? CatalogFormat.MAX_LEAF_ENTRIES : 1 + random.nextInt(12);
    long epoch = positiveU64();
    long[] spans = leafSpans(n);
    List<LeafEntry> entries = leaves(n, epoch, new Clock(), spans, start(spans, false));
    return LeafPage.seal(partition, algorithm(), positiveU64(), epoch, streamKey, entries);
  }

  IndexPage indexPage(int partition, Key256 streamKey) {
    int n = random.nextInt(10) == 0 ? CatalogFormat.MAX_INDEX_ENTRIES : 1 + random.nextInt(12);
    int level = 1 + random.nextInt(CatalogFormat.MAX_INDEX_LEVEL);
    long generation = positiveU64();
    RefShape[] shapes = new RefShape[n];
    long[] minimums = new long[n];
    for (int i = 0; i < n; i++) {
      shapes[i] = refShape(level - 1);
      minimums[i] = shapes[i].segmentCount();
    }
    long[] spans = spans(n, minimums);
    List<IndexEntry> entries = refsOver(shapes, level - 1, generation, new Clock(), spans, start(spans, false));
    return IndexPage.seal(level, partition, algorithm(), generation, positiveU64(), streamKey, entries);
  }

  Head head() {
    int leafLimit = random.nextInt(4) == 0 ? CatalogFormat.MAX_LEAF_ENTRIES : 1 + random.nextInt(8);
    int indexLimit = random.nextInt(4) == 0 ? CatalogFormat.MAX_INDEX_ENTRIES : 2 + random.nextInt(8);
    Head.Builder head =
        Head.builder()
            .partition(random.nextInt())
            .hashAlgorithm(algorithm())
            .leafLimit(leafLimit)
            .indexLimit(indexLimit)
            .streamKey(key())
            .dataRootKey(key());
    int shape = random.nextInt(4);
    if (shape == 0) {
      return emptyPartition(head);
    }
    if (shape == 1) {
      return fullyRetained(head);
    }
    return populated(head, leafLimit, indexLimit);
  }

  private List<List<IndexEntry>> emptySections() {
    int n = random.nextInt(5) == 0 ? CatalogFormat.MAX_OPEN_INDEX_LEVEL : random.nextInt(3);
    List<List<IndexEntry>> sections = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      sections.add(List.of());
    }
    return sections;
  }

  private void retention(Head.Builder head, long next) {
    long version = random.nextBoolean() ? 0 : positiveU64();
    head.appliedRetentionVersion(version).appliedRetentionLsn(version == 0 ? 0 : between(0, next));
  }

  private Head emptyPartition(Head.Builder head) {
    long next = random.nextBoolean() ? anyU64() : -1L;
    boolean fenced = random.nextBoolean();
    head.nextLsn(next).oldestLsn(next).generation(anyU64()).sections(emptySections());
    if (fenced) {
      head.writerEpoch(positiveU64()).writerId(id());
    }
    retention(head, next);
    return head.build();
  }

  private Head fullyRetained(Head.Builder head) {
    long epoch = positiveU64();
    long[] spans = leafSpans(1);
    LeafEntry last = leaves(1, epoch, new Clock(), spans, start(spans, true)).get(0);
    long next = last.lastLsn() + 1;
    head.lastSegment(last)
        .nextLsn(next)
        .oldestLsn(next)
        .writerEpoch(epoch)
        .writerId(id())
        .generation(anyU64())
        .segmentCount(positiveU64())
        .sections(emptySections());
    retention(head, next);
    return head.build();
  }

  private Head populated(Head.Builder head, int leafLimit, int indexLimit) {
    int levels = random.nextInt(6) == 0 ? CatalogFormat.MAX_OPEN_INDEX_LEVEL : random.nextInt(4);
    int activeCount = count(leafLimit - 1);
    int[] sectionCounts = new int[levels];
    int roots = activeCount;
    for (int i = 0; i < levels; i++) {
      sectionCounts[i] = levels > 8 ? (random.nextInt(8) == 0 ? 1 : 0) : count(indexLimit - 1);
      roots += sectionCounts[i];
    }
    if (roots == 0) {
      if (levels == 0 || leafLimit > 1 && random.nextBoolean()) {
        return leafLimit > 1 ? populatedWithOneActive(head, levels) : fullyRetained(head);
      }
      sectionCounts[random.nextInt(levels)] = 1;
      roots = 1;
    }
    long epoch = positiveU64();
    long generation = positiveU64();
    // Roots in traversal order: highest section first, then lower ones, then the active leaf.
    List<RefShape[]> shapesByLevel = new ArrayList<>();
    for (int i = 0; i < levels; i++) {
      shapesByLevel.add(new RefShape[sectionCounts[i]]);
    }
    long[] minimums = new long[roots];
    int k = 0;
    for (int i = levels - 1; i >= 0; i--) {
      RefShape[] shapes = shapesByLevel.get(i);
      for (int j = 0; j < shapes.length; j++) {
        shapes[j] = refShape(i);
        minimums[k++] = shapes[j].segmentCount();
      }
    }
    long[] leafSpans = leafSpans(activeCount);
    for (int j = 0; j < activeCount; j++) {
      minimums[k++] = leafSpans[j];
    }
    long[] spans = spans(roots, minimums);
    for (int j = 0; j < activeCount; j++) {
      // Active spans must keep record_count within 32 bits.
      spans[roots - activeCount + j] = leafSpans[j];
    }
    long oldest = start(spans, true);
    Clock clock = new Clock();
    List<List<IndexEntry>> sections = new ArrayList<>();
    for (int i = 0; i < levels; i++) {
      sections.add(List.of());
    }
    long lo = oldest;
    k = 0;
    long reachable = 0;
    for (int i = levels - 1; i >= 0; i--) {
      RefShape[] shapes = shapesByLevel.get(i);
      long[] sectionSpans = java.util.Arrays.copyOfRange(spans, k, k + shapes.length);
      List<IndexEntry> refs = refsOver(shapes, i, generation, clock, sectionSpans, lo);
      for (long span : sectionSpans) {
        lo += span;
      }
      for (RefShape shape : shapes) {
        reachable += shape.segmentCount();
      }
      k += shapes.length;
      sections.set(i, refs);
    }
    List<LeafEntry> active =
        leaves(activeCount, epoch, clock, java.util.Arrays.copyOfRange(spans, k, roots), lo);
    reachable += activeCount;
    long next = oldest;
    for (long span : spans) {
      next += span;
    }
    LeafEntry last;
    if (!active.isEmpty()) {
      last = active.get(active.size() - 1);
    } else {
      IndexEntry lastRef = lastRef(sections);
      long base = Long.compareUnsigned(lastRef.seqHi() - lastRef.seqLo(), 50) > 0
          ? lastRef.seqHi() - between(0, 50)
          : lastRef.seqLo();
      last = leaf(base, lastRef.seqHi(), lastRef.maxTimestampMs(), lastRef.maxTimestampMs(), between(1, epoch));
    }
    head.lastSegment(last)
        .active(active)
        .sections(sections)
        .nextLsn(next)
        .oldestLsn(oldest)
        .writerEpoch(epoch)
        .writerId(id())
        .generation(generation)
        .reachableSegmentCount(reachable)
        .segmentCount(reachable + between(0, 1000));
    retention(head, next);
    return head.build();
  }

  private Head populatedWithOneActive(Head.Builder head, int levels) {
    long epoch = positiveU64();
    long[] spans = leafSpans(1);
    LeafEntry only = leaves(1, epoch, new Clock(), spans, start(spans, true)).get(0);
    List<List<IndexEntry>> sections = new ArrayList<>();
    for (int i = 0; i < levels; i++) {
      sections.add(List.of());
    }
    long next = only.lastLsn() + 1;
    head.lastSegment(only)
        .active(List.of(only))
        .sections(sections)
        .nextLsn(next)
        .oldestLsn(only.baseLsn())
        .writerEpoch(epoch)
        .writerId(id())
        .generation(anyU64())
        .reachableSegmentCount(1)
        .segmentCount(between(1, -1L));
    retention(head, next);
    return head.build();
  }

  private static IndexEntry lastRef(List<List<IndexEntry>> sections) {
    for (List<IndexEntry> section : sections) {
      if (!section.isEmpty()) {
        return section.get(section.size() - 1);
      }
    }
    throw new IllegalStateException("no section entries");
  }
}
