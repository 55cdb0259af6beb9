package dev.objlog.internal.catalog;

import static dev.objlog.internal.catalog.CatalogTestSupport.catalog;
import static dev.objlog.internal.catalog.CatalogTestSupport.id;
import static dev.objlog.internal.catalog.CatalogTestSupport.identity;
import static dev.objlog.internal.catalog.CatalogTestSupport.keys;
import static dev.objlog.internal.catalog.CatalogTestSupport.options;
import static dev.objlog.internal.catalog.CatalogTestSupport.segment;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.InvalidArgumentException;
import dev.objlog.RetentionRegressionException;
import dev.objlog.format.catalog.DecodedPage;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.internal.catalog.CatalogTestSupport.StoreKind;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.memory.MemoryObjectStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Copy-on-write retention trim (FORMAT.md §2.10) and its commit through the fenced session. */
class RetentionTrimTests {

  @TempDir Path dir;

  /** Publishes {@code count} segments of 1..3 records each, one publish per segment. */
  private static List<LeafEntry> fill(FencedSession session, int count, long seed) {
    Random random = new Random(seed);
    List<LeafEntry> published = new ArrayList<>();
    long lsn = session.head().head().nextLsn();
    LeafEntry previous = session.head().head().lastSegment();
    long ts = previous == null ? 1_000 : previous.maxTimestampMs();
    for (int i = 0; i < count; i++) {
      long records = 1 + random.nextInt(3);
      LeafEntry entry = segment(session, lsn, records, ts, ts + random.nextInt(5));
      ts = entry.maxTimestampMs();
      session.publish(List.of(entry));
      published.add(entry);
      lsn += records;
    }
    return published;
  }

  /** The segments a trim at {@code lsn} keeps: from the one containing it (or none at next). */
  private static List<LeafEntry> expectedAfter(List<LeafEntry> published, long lsn) {
    List<LeafEntry> kept = new ArrayList<>();
    for (LeafEntry e : published) {
      if (e.lastLsn() >= lsn) {
        kept.add(e);
      }
    }
    return kept;
  }

  static Stream<Arguments> fanOuts() {
    return Stream.of(Arguments.of(1, 2), Arguments.of(2, 2), Arguments.of(3, 2), Arguments.of(2, 3),
        Arguments.of(4, 4));
  }

  @ParameterizedTest(name = "leaf {0} index {1}")
  @MethodSource("fanOuts")
  void aTrimAtEveryPositionOfAMultiLevelTreePassesFullVerification(int leaf, int index) {
    ObjectStore store = new MemoryObjectStore();
    PartitionCatalog catalog = catalog(store, options(leaf, index));
    FencedSession session = catalog.takeover(id(1));
    List<LeafEntry> published = fill(session, 37, leaf * 31L + index);
    Head base = session.head().head();
    assertThat(base.levelCount()).as("open levels").isGreaterThanOrEqualTo(2);
    Set<String> existing = new HashSet<>();
    store.list(keys().pagesDir(), 10_000).entries().forEach(m -> existing.add(m.key()));

    for (long lsn = 0; lsn <= base.nextLsn() + 1; lsn++) {
      CatalogMutations.Retention retention =
          CatalogMutations.retain(base, 1, lsn, keys(), catalog::loadChild);
      Mutation mutation = retention.mutation();
      assertThat(mutation).isNotNull();
      Head trimmed = mutation.head();
      List<LeafEntry> kept = expectedAfter(published, lsn);
      long floor = kept.isEmpty() ? base.nextLsn() : kept.get(0).baseLsn();
      assertThat(retention.targetLsn()).isEqualTo(Math.min(lsn, base.nextLsn()));
      assertThat(retention.effectiveOldestLsn()).as("floor at %d", lsn).isEqualTo(floor);
      assertThat(trimmed.oldestLsn()).isEqualTo(floor);
      assertThat(trimmed.appliedRetentionLsn()).isEqualTo(retention.targetLsn());
      assertThat(trimmed.appliedRetentionVersion()).isEqualTo(1);
      assertThat(trimmed.generation()).isEqualTo(base.generation() + 1);
      assertThat(trimmed.segmentCount()).isEqualTo(base.segmentCount());
      assertThat(trimmed.reachableSegmentCount()).isEqualTo(kept.size());
      assertThat(trimmed.lastSegment()).isEqualTo(base.lastSegment());
      // Every new page is a copy at the new generation under a key nothing else uses.
      for (Mutation.PageObject page : mutation.pages()) {
        assertThat(page.page().page().header().generation()).isEqualTo(trimmed.generation());
        assertThat(existing).as("keys before the trim").doesNotContain(page.key());
      }
      // At most one trimmed copy per level.
      Set<Integer> levels = new HashSet<>();
      for (Mutation.PageObject page : mutation.pages()) {
        assertThat(levels.add(page.page().page().header().level())).isTrue();
      }
      catalog.putPages(mutation.pages());
      TreeReport report = catalog.verifyTree(trimmed);
      assertThat(report.segments()).isEqualTo(kept.size());
      if (!kept.isEmpty()) {
        assertThat(catalog.listSegments(trimmed, floor, 1024).segments()).containsExactlyElementsOf(kept);
      }
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void seededRetentionInterleavedWithPublishesKeepsTheTreeValid(long seed) {
    Random random = new Random(seed);
    int leaf = 1 + random.nextInt(4);
    int index = 2 + random.nextInt(3);
    ObjectStore store = new MemoryObjectStore();
    PartitionCatalog catalog = catalog(store, options(leaf, index));
    FencedSession session = catalog.takeover(id(1));
    List<LeafEntry> published = new ArrayList<>();
    long version = 0;
    long applied = 0;
    for (int round = 0; round < 12; round++) {
      published.addAll(fill(session, 1 + random.nextInt(12), seed * 100 + round));
      Head head = session.head().head();
      long before = applied + random.nextInt((int) (head.nextLsn() - applied + 3));
      RetentionApplyResult result = session.applyRetention(++version, before);
      applied = Math.min(before, head.nextLsn());
      assertThat(result.applied()).isTrue();
      assertThat(result.requestedLsn()).isEqualTo(applied);
      List<LeafEntry> kept = expectedAfter(published, Math.max(applied, head.oldestLsn()));
      Head now = catalog.loadHead().orElseThrow().head();
      assertThat(now).isEqualTo(result.head());
      TreeWalk walk = TreeWalk.read(store, keys(), identity());
      assertThat(walk.leaves).as("seed %d round %d", seed, round).containsExactlyElementsOf(kept);
      assertThat(catalog.verifyTree(now).segments()).isEqualTo(kept.size());
    }
    // Publishing after the trims still cascades correctly.
    published.addAll(fill(session, 20, seed));
    Head last = catalog.loadHead().orElseThrow().head();
    assertThat(catalog.verifyTree(last).segments()).isEqualTo(last.reachableSegmentCount());
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void applyRetentionCommitsThroughTheFenceAndFollowsTheMonotonicRules(StoreKind kind) {
    ObjectStore store = kind.open(dir);
    PartitionCatalog catalog = catalog(store, options(2, 2));
    FencedSession session = catalog.takeover(id(1));
    List<LeafEntry> published = fill(session, 12, 9);
    long generation = session.head().head().generation();
    long cut = published.get(5).baseLsn() + published.get(5).recordCount() - 1;

    RetentionApplyResult first = session.applyRetention(3, cut);
    assertThat(first.applied()).isTrue();
    assertThat(first.reconciled()).isFalse();
    assertThat(first.oldestLsn()).isEqualTo(published.get(5).baseLsn());
    assertThat(first.head().generation()).isEqualTo(generation + 1);

    // The same request again: a no-op, nothing written.
    RetentionApplyResult again = session.applyRetention(3, cut);
    assertThat(again.applied()).isFalse();
    assertThat(again.head().generation()).isEqualTo(generation + 1);

    assertThatThrownBy(() -> session.applyRetention(2, cut + 5))
        .isInstanceOf(RetentionRegressionException.class);
    assertThatThrownBy(() -> session.applyRetention(3, cut - 1))
        .isInstanceOf(RetentionRegressionException.class);
    assertThatThrownBy(() -> session.applyRetention(4, cut - 1))
        .isInstanceOf(RetentionRegressionException.class)
        .satisfies(e -> assertThat(((RetentionRegressionException) e).currentPolicyVersion()).isEqualTo(3));
    assertThatThrownBy(() -> session.applyRetention(0, cut))
        .isInstanceOf(InvalidArgumentException.class);
    assertThat(session.isUsable()).isTrue();

    // Beyond next_lsn: fully retained, clamped, and publishing continues from next_lsn.
    long next = session.head().head().nextLsn();
    RetentionApplyResult all = session.applyRetention(4, Long.MAX_VALUE);
    assertThat(all.requestedLsn()).isEqualTo(next);
    assertThat(all.oldestLsn()).isEqualTo(next);
    assertThat(all.head().reachableSegmentCount()).isZero();
    assertThat(all.head().sections()).isEmpty();
    assertThat(all.head().active()).isEmpty();
    LeafEntry more = segment(session, next, 2, 5_000, 5_001);
    session.publish(List.of(more));
    Head head = catalog.loadHead().orElseThrow().head();
    assertThat(head.oldestLsn()).isEqualTo(next);
    assertThat(catalog.verifyTree(head).segments()).isEqualTo(1);
  }

  @Test
  void aTakeoverKeepsTheAppliedRetentionAndTheNewWriterContinuesIt() {
    ObjectStore store = new MemoryObjectStore();
    PartitionCatalog catalog = catalog(store, options(2, 2));
    FencedSession first = catalog.takeover(id(1));
    List<LeafEntry> published = fill(first, 10, 3);
    first.applyRetention(1, published.get(4).baseLsn());
    FencedSession second = catalog.takeover(id(2));
    assertThat(second.head().head().appliedRetentionVersion()).isEqualTo(1);
    RetentionApplyResult result = second.applyRetention(2, published.get(7).baseLsn());
    assertThat(result.oldestLsn()).isEqualTo(published.get(7).baseLsn());
    assertThat(catalog.verifyTree(result.head()).segments()).isEqualTo(3);
    // Pages sealed by the trim under epoch 2 hold entries written under epoch 1.
    Map<String, DecodedPage> pages = TreeWalk.read(store, keys(), identity()).pages;
    assertThat(pages.values()).allSatisfy(p -> assertThat(p.page().header().writerEpoch()).isLessThanOrEqualTo(2));
  }
}
