package dev.objlog.internal.catalog;

import static dev.objlog.internal.catalog.CatalogTestSupport.catalog;
import static dev.objlog.internal.catalog.CatalogTestSupport.id;
import static dev.objlog.internal.catalog.CatalogTestSupport.identity;
import static dev.objlog.internal.catalog.CatalogTestSupport.keys;
import static dev.objlog.internal.catalog.CatalogTestSupport.options;
import static dev.objlog.internal.catalog.CatalogTestSupport.segment;
import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.format.catalog.DecodedPage;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.key.ParsedKey;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.internal.catalog.CatalogTestSupport.StoreKind;
import dev.objlog.store.ListPage;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ObjectStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Append with carry/cascade into sealed leaf and index pages (FORMAT.md §2.8). */
class PublishCascadeTests {

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void smallFanOutBuildsThreeIndexLevelsAndEveryStepReadsBackIndependently(StoreKind kind) {
    ObjectStore store = kind.open(dir);
    PartitionCatalog catalog = catalog(store, options(2, 2));
    FencedSession session = catalog.takeover(id(1));
    List<LeafEntry> published = new ArrayList<>();
    Map<String, Long> sealedAtGeneration = new java.util.HashMap<>();
    long lsn = 0;
    for (int i = 0; i < 40; i++) {
      long records = 1 + (i % 3);
      LeafEntry entry = segment(session, lsn, records, 1000 + 5L * i, 1005 + 5L * i);
      long generationBefore = session.head().head().generation();
      PublishResult result = session.publish(List.of(entry));
      published.add(entry);
      lsn += records;

      assertThat(result.head().generation()).isEqualTo(generationBefore + 1);
      TreeWalk walk = TreeWalk.read(store, keys(), identity());
      assertThat(walk.head).isEqualTo(result.head());
      walk.assertHolds(published);
      assertThat(walk.head.segmentCount()).isEqualTo(published.size());
      // A page, once sealed, is never rewritten: its generation is that of the commit sealing it.
      for (Map.Entry<String, DecodedPage> page : walk.pages.entrySet()) {
        long generation = page.getValue().page().header().generation();
        Long first = sealedAtGeneration.putIfAbsent(page.getKey(), generation);
        if (first == null) {
          assertThat(generation).as(page.getKey()).isEqualTo(result.head().generation());
        }
      }
      assertThat(catalog.verifyTree(result.head()).segments()).isEqualTo(published.size());
    }

    TreeWalk walk = TreeWalk.read(store, keys(), identity());
    assertThat(walk.maxLevel).as("highest sealed page level").isGreaterThanOrEqualTo(3);
    TreeReport report = catalog.verifyTree(walk.head);
    assertThat(report.leafPages()).isEqualTo(20);
    assertThat(report.levels()).isEqualTo(walk.maxLevel + 1);
    assertPageKeysFollowTheGrammar(store, keys(), walk.pages.keySet());
  }

  /** Every object under pages/ parses under key layout v1 and is reachable (no orphans here). */
  static void assertPageKeysFollowTheGrammar(ObjectStore store, PartitionKeys keys, Set<String> reachable) {
    Set<String> listed = new HashSet<>();
    String after = "";
    while (true) {
      ListPage page = store.list(keys.pagesDir(), after, 100);
      for (ObjectMetadata object : page.entries()) {
        listed.add(object.key());
        ParsedKey.Page parsed = keys.parsePage(object.key());
        DecodedPage decoded = dev.objlog.format.catalog.CatalogCodec.decodePage(store.get(object.key()).bytes());
        assertThat(parsed.level()).isEqualTo(decoded.page().header().level());
        assertThat(parsed.seqLo()).isEqualTo(decoded.page().header().seqLo());
        assertThat(parsed.seqHi()).isEqualTo(decoded.page().header().seqHi());
        assertThat(parsed.generation()).isEqualTo(decoded.page().header().generation());
        assertThat(parsed.pageIdHex()).isEqualTo(decoded.pageId().hex());
        after = object.key();
      }
      if (!page.hasMore()) {
        break;
      }
    }
    assertThat(listed).isEqualTo(reachable);
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 20240611})
  void randomFanOutsAndGroupSizesKeepTheTreeExact(long seed) {
    Random random = new Random(seed);
    int leafLimit = 1 + random.nextInt(5);
    int indexLimit = 2 + random.nextInt(3);
    ObjectStore store = StoreKind.MEMORY.open(dir);
    PartitionCatalog catalog = catalog(store, options(leafLimit, indexLimit));
    List<LeafEntry> published = new ArrayList<>();
    long lsn = random.nextInt(1000);
    catalog.initializePartition(lsn);
    FencedSession session = catalog.takeover(id(1));
    long ts = -50;
    for (int round = 0; round < 60; round++) {
      int k = 1 + random.nextInt(6);
      List<LeafEntry> group = new ArrayList<>();
      for (int i = 0; i < k; i++) {
        long records = 1 + random.nextInt(4);
        long min = ts + random.nextInt(2);
        long max = min + random.nextInt(3);
        group.add(segment(session, lsn, records, min, max));
        lsn += records;
        ts = max;
      }
      session.publish(group);
      published.addAll(group);
      if (random.nextInt(10) == 0) {
        // A takeover mid-stream: later entries carry a higher epoch in the same open leaf.
        session = catalog.takeover(id(2 + round));
      }
    }
    String context = "seed " + seed + " leaf " + leafLimit + " index " + indexLimit;
    TreeWalk walk = TreeWalk.read(store, keys(), identity());
    assertThat(walk.leaves).as(context).containsExactlyElementsOf(published);
    assertThat(catalog.verifyTree(walk.head).segments()).as(context).isEqualTo(published.size());
    assertPageKeysFollowTheGrammar(store, keys(), walk.pages.keySet());
  }
}
