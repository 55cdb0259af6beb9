package dev.objlog.internal.catalog;

import static dev.objlog.internal.catalog.CatalogTestSupport.catalog;
import static dev.objlog.internal.catalog.CatalogTestSupport.id;
import static dev.objlog.internal.catalog.CatalogTestSupport.identity;
import static dev.objlog.internal.catalog.CatalogTestSupport.keys;
import static dev.objlog.internal.catalog.CatalogTestSupport.options;
import static dev.objlog.internal.catalog.CatalogTestSupport.reseal;
import static dev.objlog.internal.catalog.CatalogTestSupport.segments;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.CorruptObjectException;
import dev.objlog.IntegrityException;
import dev.objlog.format.catalog.CatalogCodec;
import dev.objlog.format.catalog.DecodedPage;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.catalog.LeafPage;
import dev.objlog.internal.catalog.CatalogTestSupport.StoreKind;
import dev.objlog.store.ObjectStore;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Full tree verification (FORMAT.md §2.12) and how it reports a broken bucket. */
class TreeVerificationTests {

  @TempDir Path dir;

  private ObjectStore store;
  private PartitionCatalog catalog;
  private Head head;

  private void build(StoreKind kind) {
    store = kind.open(dir);
    catalog = catalog(store, options(2, 2));
    FencedSession session = catalog.takeover(id(1));
    session.publish(segments(session, 0, 11, 3, 100));
    head = session.head().head();
  }

  /** Any reachable leaf page, by key. */
  private Map.Entry<String, DecodedPage> someLeaf() {
    return TreeWalk.read(store, keys(), identity()).pages.entrySet().stream()
        .filter(e -> e.getValue().page() instanceof LeafPage)
        .findFirst()
        .orElseThrow();
  }

  private void overwrite(String key, byte[] bytes) {
    assertThat(store.compareAndSwap(key, store.get(key).token(), bytes).swapped()).isTrue();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aHealthyTreeVerifiesAndReportsWhatItRead(StoreKind kind) {
    build(kind);

    TreeReport report = catalog.verifyTree(head);

    // 11 segments at leaf 2: 5 sealed leaves (1 active entry); index pages at levels 1 and 2.
    assertThat(report.segments()).isEqualTo(11);
    assertThat(report.leafPages()).isEqualTo(5);
    assertThat(report.indexPages()).isEqualTo(3);
    assertThat(report.levels()).isEqualTo(3);
    assertThat(report.pagesVisited()).isEqualTo(TreeWalk.read(store, keys(), identity()).pages.size());
    assertThat(report.pageBytes()).isPositive();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aValidPageWithOtherContentUnderAReferencedKeyIsReported(StoreKind kind) {
    build(kind);
    Map.Entry<String, DecodedPage> leaf = someLeaf();
    LeafPage original = leaf.getValue().leaf();
    List<LeafEntry> entries = new ArrayList<>(original.entries());
    LeafEntry e = entries.get(0);
    entries.set(0, new LeafEntry(e.baseLsn(), e.lastLsn(), e.minTimestampMs(), e.maxTimestampMs(),
        e.recordCount(), e.blockCount(), e.sizeBytes() + 1, e.blockIndexOffset(),
        e.blockIndexLength(), e.codec(), e.hashAlgorithm(), e.segmentHash(), e.trailerHash(),
        e.writerEpoch(), e.segmentUuid(), e.writerTag()));
    // A well-formed page with correct hashes, but not the page its parent references.
    byte[] impostor = CatalogCodec.encodePage(new LeafPage(original.header(), entries)).bytes();
    overwrite(leaf.getKey(), impostor);

    assertThatThrownBy(() -> catalog.verifyTree(head))
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining(leaf.getKey())
        .hasMessageContaining("page id");
    // A reader with a cold cache refuses the page too.
    PartitionCatalog cold = catalog(store, options(2, 2));
    long lsn = original.entries().get(0).baseLsn();
    assertThatThrownBy(() -> cold.findSegment(head, lsn)).isInstanceOf(IntegrityException.class);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aResealedPageBreakingAFormatRuleIsReported(StoreKind kind) {
    build(kind);
    Map.Entry<String, DecodedPage> leaf = someLeaf();
    byte[] bytes = store.get(leaf.getKey()).bytes();
    // Swap the second entry's min and max timestamps apart: min > max, hashes recomputed.
    ByteBuffer b = ByteBuffer.wrap(bytes);
    int entry = 128 + 128;
    b.putLong(entry + 16, b.getLong(entry + 24) + 1);
    overwrite(leaf.getKey(), reseal(bytes, leaf.getValue().page().header().hashAlgorithm()));

    assertThatThrownBy(() -> catalog.verifyTree(head))
        .isInstanceOf(CorruptObjectException.class)
        .hasMessageContaining("tree verification")
        .hasMessageContaining(leaf.getKey());
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aMissingPageIsReported(StoreKind kind) {
    build(kind);
    String key = someLeaf().getKey();
    store.delete(List.of(key));

    assertThatThrownBy(() -> catalog.verifyTree(head))
        .isInstanceOf(CorruptObjectException.class)
        .hasMessageContaining(key)
        .hasMessageContaining("missing");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aHeadWhoseCountsDisagreeWithItsTreeIsReported(StoreKind kind) {
    build(kind);
    // A head claiming fewer reachable segments than its roots hold: reported from the head's
    // rules before any page is read.
    Head lying = head.toBuilder().reachableSegmentCount(head.reachableSegmentCount() - 1).build();

    assertThatThrownBy(() -> catalog.verifyTree(lying))
        .isInstanceOf(CorruptObjectException.class)
        .hasMessageContaining("reachable");
  }
}
