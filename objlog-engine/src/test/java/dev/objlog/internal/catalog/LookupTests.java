package dev.objlog.internal.catalog;

import static dev.objlog.internal.catalog.CatalogTestSupport.catalog;
import static dev.objlog.internal.catalog.CatalogTestSupport.id;
import static dev.objlog.internal.catalog.CatalogTestSupport.options;
import static dev.objlog.internal.catalog.CatalogTestSupport.segment;
import static dev.objlog.internal.catalog.CatalogTestSupport.segments;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.format.catalog.CatalogFormat;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.internal.catalog.CatalogTestSupport.StoreKind;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.fault.FaultInjectingObjectStore;
import dev.objlog.store.fault.FaultInjectingObjectStore.Operation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Lookups by LSN and timestamp, and listing (FORMAT.md §2.11). */
class LookupTests {

  @TempDir Path dir;

  /** Publishes 90 seeded segments at leaf 3 / index 2 from LSN 1000; returns them. */
  private static List<LeafEntry> build(PartitionCatalog catalog, long seed) {
    Random random = new Random(seed);
    catalog.initializePartition(1000);
    FencedSession session = catalog.takeover(id(1));
    List<LeafEntry> all = new ArrayList<>();
    long lsn = 1000;
    long ts = 500;
    while (all.size() < 90) {
      List<LeafEntry> group = new ArrayList<>();
      for (int i = 1 + random.nextInt(4); i > 0; i--) {
        long records = 1 + random.nextInt(5);
        // Often the next segment starts at the previous one's last timestamp (a duplicate).
        long min = ts + (random.nextBoolean() ? 0 : random.nextInt(3));
        long max = min + random.nextInt(4);
        group.add(segment(session, lsn, records, min, max));
        lsn += records;
        ts = max;
      }
      session.publish(group);
      all.addAll(group);
    }
    return all;
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void everyLsnAndTimestampFindsTheSegmentABruteForceScanFinds(StoreKind kind) {
    long seed = 42;
    PartitionCatalog catalog = catalog(kind.open(dir), options(3, 2));
    List<LeafEntry> all = build(catalog, seed);
    Head head = catalog.loadHead().orElseThrow().head();
    assertThat(head.levelCount()).as("seed " + seed).isGreaterThanOrEqualTo(4);

    for (long lsn = 990; lsn < head.nextLsn() + 5; lsn++) {
      long at = lsn;
      Optional<LeafEntry> expected = all.stream().filter(e -> e.contains(at)).findFirst();
      assertThat(catalog.findSegment(head, lsn)).as("seed " + seed + " lsn " + lsn).isEqualTo(expected);
    }
    long firstTs = all.get(0).minTimestampMs();
    long lastTs = all.get(all.size() - 1).maxTimestampMs();
    for (long ts = firstTs - 3; ts <= lastTs + 3; ts++) {
      long t = ts;
      Optional<LeafEntry> expected = all.stream().filter(e -> e.maxTimestampMs() >= t).findFirst();
      assertThat(catalog.findSegmentByTimestamp(head, ts)).as("seed " + seed + " ts " + ts).isEqualTo(expected);
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void listingPagesThroughEverySegmentFromAnyStart(StoreKind kind) {
    PartitionCatalog catalog = catalog(kind.open(dir), options(3, 2));
    List<LeafEntry> all = build(catalog, 7);
    Head head = catalog.loadHead().orElseThrow().head();

    List<LeafEntry> listed = new ArrayList<>();
    long from = 0; // below the floor: starts at the oldest segment
    while (true) {
      SegmentListing page = catalog.listSegments(head, from, 7);
      assertThat(page.segments()).hasSizeLessThanOrEqualTo(7);
      listed.addAll(page.segments());
      from = page.nextLsn();
      if (!page.hasMore()) {
        break;
      }
      assertThat(page.segments()).hasSize(7);
    }
    assertThat(listed).containsExactlyElementsOf(all);
    assertThat(from).isEqualTo(head.nextLsn());

    LeafEntry middle = all.get(40);
    SegmentListing fromMiddle = catalog.listSegments(head, middle.lastLsn(), 0);
    assertThat(fromMiddle.segments()).first().isEqualTo(middle);
    assertThat(fromMiddle.segments()).containsExactlyElementsOf(all.subList(40, all.size()));
    assertThat(fromMiddle.hasMore()).isFalse();

    SegmentListing atEnd = catalog.listSegments(head, head.nextLsn() + 3, 10);
    assertThat(atEnd.segments()).isEmpty();
    assertThat(atEnd.nextLsn()).isEqualTo(head.nextLsn() + 3);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void listingCapsAPageAt1024Segments(StoreKind kind) {
    PartitionCatalog catalog = catalog(kind.open(dir), options(16, 8));
    FencedSession session = catalog.takeover(id(1));
    session.publish(segments(session, 0, 700, 1, 0));
    session.publish(segments(session, 700, 700, 1, 7000));
    Head head = session.head().head();

    SegmentListing page = catalog.listSegments(head, 0, 5000);

    assertThat(page.segments()).hasSize(1024);
    assertThat(page.nextLsn()).isEqualTo(1024);
    assertThat(page.hasMore()).isTrue();
    assertThat(catalog.listSegments(head, 0, 0).segments()).hasSize(128);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aColdLookupCostsOneGetPerLevelAndAWarmOneNone(StoreKind kind) {
    ObjectStore backing = kind.open(dir);
    PartitionCatalog writer = catalog(backing, options(2, 2));
    FencedSession session = writer.takeover(id(1));
    session.publish(segments(session, 0, 40, 2, 0));

    FaultInjectingObjectStore store = FaultInjectingObjectStore.builder(backing).build();
    PartitionCatalog reader = catalog(store, options(2, 2)); // a new store: cold caches
    Head head = reader.loadHead().orElseThrow().head();
    assertThat(store.requestCount(Operation.GET)).isEqualTo(1);
    int levels = writer.verifyTree(head).levels();
    store.resetCounts();

    LeafEntry first = reader.findSegment(head, 0).orElseThrow();
    assertThat(store.requestCount(Operation.GET)).as("cold, " + levels + " levels").isEqualTo(levels);
    store.resetCounts();
    assertThat(reader.findSegment(head, 1)).contains(first);
    assertThat(reader.findSegmentByTimestamp(head, 0)).contains(first);
    assertThat(store.requestCount(Operation.GET)).as("warm").isZero();

    // An unchanged head refreshes by conditional GET and transfers no body.
    store.resetCounts();
    assertThat(reader.refreshHead().orElseThrow().head()).isEqualTo(head);
    assertThat(store.requestCount(Operation.GET_IF_CHANGED)).isEqualTo(1);
    assertThat(store.requestCount(Operation.GET)).isZero();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void lsnsNearTheTopOfTheRangeWorkAndTheLastOneIsExhausted(StoreKind kind) {
    PartitionCatalog catalog = catalog(kind.open(dir), options(2, 2));
    long start = CatalogFormat.MAX_RECORD_LSN - 40; // 2^64 - 42
    catalog.initializePartition(start);
    FencedSession session = catalog.takeover(id(1));
    List<LeafEntry> all = segments(session, start, 13, 3, 0); // LSNs 2^64-42 .. 2^64-4
    session.publish(all.subList(0, 5));
    session.publish(all.subList(5, 13));
    Head head = session.head().head();
    assertThat(head.nextLsn()).isEqualTo(CatalogFormat.MAX_RECORD_LSN - 1);

    assertThat(catalog.findSegment(head, CatalogFormat.MAX_RECORD_LSN - 2)).contains(all.get(12));
    assertThat(catalog.findSegment(head, CatalogFormat.MAX_RECORD_LSN - 1)).isEmpty();
    assertThat(catalog.findSegment(head, CatalogFormat.RESERVED_LSN)).isEmpty();
    assertThat(catalog.findSegment(head, start - 1)).as("below the floor").isEmpty();
    assertThat(catalog.findSegment(head, start + 4)).contains(all.get(1));
    assertThat(catalog.listSegments(head, start, 1024).segments()).containsExactlyElementsOf(all);
    assertThat(catalog.verifyTree(head).segments()).isEqualTo(13);

    // A segment ending at 2^64-2 would make next_lsn the reserved LSN: refused, nothing written.
    assertThatThrownBy(() -> session.publish(List.of(segment(session, head.nextLsn(), 2, 200, 200))))
        .isInstanceOfSatisfying(CatalogExhaustedException.class,
            e -> assertThat(e.resource()).isEqualTo(CatalogExhaustedException.Resource.LSN));
    // Ending at 2^64-3 is the last commit possible; then the LSN space is exhausted.
    Head last = session.publish(List.of(segment(session, head.nextLsn(), 1, 200, 200))).head();
    assertThat(last.nextLsn()).isEqualTo(CatalogFormat.MAX_RECORD_LSN);
    assertThat(catalog.findSegment(last, CatalogFormat.MAX_RECORD_LSN - 1)).isPresent();
    assertThatThrownBy(() -> session.publish(List.of(segment(session, last.nextLsn(), 1, 200, 200))))
        .isInstanceOf(CatalogExhaustedException.class);
    assertThat(session.isUsable()).isTrue();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void anEmptyPartitionFindsNothing(StoreKind kind) {
    PartitionCatalog catalog = catalog(kind.open(dir), options(2, 2));
    Head head = catalog.initializePartition(5).head().head();

    assertThat(catalog.findSegment(head, 5)).isEmpty();
    assertThat(catalog.findSegmentByTimestamp(head, Long.MIN_VALUE)).isEmpty();
    SegmentListing listing = catalog.listSegments(head, 0, 10);
    assertThat(listing.segments()).isEmpty();
    assertThat(listing.nextLsn()).isEqualTo(5);
    assertThat(catalog.verifyTree(head).segments()).isZero();
  }
}
