package dev.objlog.internal.catalog;

import static dev.objlog.internal.catalog.CatalogTestSupport.catalog;
import static dev.objlog.internal.catalog.CatalogTestSupport.id;
import static dev.objlog.internal.catalog.CatalogTestSupport.identity;
import static dev.objlog.internal.catalog.CatalogTestSupport.keys;
import static dev.objlog.internal.catalog.CatalogTestSupport.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.store.memory.MemoryObjectStore;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The test-support {@link CatalogBuilder}: a catalog built in groups is one a reader and a writer accept. */
class CatalogBuilderTests {

  @Test
  void aCatalogBuiltInGroupsVerifiesAndFindsEverySegmentItCovers() {
    MemoryObjectStore store = new MemoryObjectStore();
    CatalogOptions options = options(4, 3);
    // 20 000 segments at fan-out 4/3: three groups, a tree of many levels, pages sealed across groups
    CatalogBuilder builder = CatalogBuilder.create(store, keys(), identity(), options, id(3), 10, 1_000)
        .append(12_000).append(8_000);
    PartitionCatalog fresh = catalog(store, options);
    Head head = fresh.loadHead().orElseThrow().head();
    assertThat(head).isEqualTo(builder.head());
    assertThat(head.segmentCount()).isEqualTo(20_000);
    assertThat(head.nextLsn()).isEqualTo(200_000);
    TreeReport report = fresh.verifyTree(head);
    assertThat(report.segments()).isEqualTo(20_000);
    assertThat(report.leafPages() + report.indexPages()).isEqualTo(builder.pagesWritten());
    SplittableRandom random = new SplittableRandom(24);
    for (int i = 0; i < 200; i++) {
      long lsn = random.nextLong(200_000);
      LeafEntry found = fresh.findSegment(head, lsn).orElseThrow();
      assertThat(found.baseLsn()).isEqualTo(lsn / 10 * 10);
    }
  }

  @Test
  void aBuiltCatalogTakesTheNextWritersPublish() {
    MemoryObjectStore store = new MemoryObjectStore();
    CatalogOptions options = options(4, 3);
    CatalogBuilder.create(store, keys(), identity(), options, id(3), 10, 1_000).append(100);
    FencedSession next = catalog(store, options).takeover(id(4));
    PublishResult published = next.publish(CatalogTestSupport.segments(next, 1_000, 2, 10, 2_000));
    assertThat(published.head().segmentCount()).isEqualTo(102);
    assertThat(catalog(store, options).verifyTree(published.head()).segments()).isEqualTo(102);
  }

  @Test
  void aPartitionThatHasAHeadIsRefused() {
    MemoryObjectStore store = new MemoryObjectStore();
    catalog(store, options(4, 3)).initializePartition(0);
    assertThatThrownBy(() -> CatalogBuilder.create(store, keys(), identity(), options(4, 3), id(3), 10, 1_000))
        .isInstanceOf(IllegalStateException.class);
  }
}
