package dev.objlog.internal.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.format.catalog.CatalogCodec;
import dev.objlog.format.catalog.CatalogIdentity;
import dev.objlog.format.catalog.DecodedPage;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.IndexEntry;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.catalog.LeafPage;
import dev.objlog.format.catalog.Root;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.store.ObjectStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An independent reading of a catalog in the store, using only the codec and the key builders
 * (not the engine's tree code), so tests can check what the engine wrote.
 */
final class TreeWalk {
  final Head head;
  final List<LeafEntry> leaves = new ArrayList<>();
  /** Page key → decoded page, for every reachable page. */
  final Map<String, DecodedPage> pages = new TreeMap<>();
  int maxLevel = -1;

  private TreeWalk(Head head) {
    this.head = head;
  }

  static TreeWalk read(ObjectStore store, PartitionKeys keys, CatalogIdentity identity) {
    Head head = CatalogCodec.decodeHead(store.get(keys.head()).bytes(), identity);
    TreeWalk walk = new TreeWalk(head);
    for (Root root : head.roots()) {
      if (root instanceof Root.LeafRoot leaf) {
        walk.leaves.add(leaf.entry());
      } else {
        walk.page(store, keys, identity, ((Root.PageRoot) root).reference(), head.writerEpoch());
      }
    }
    return walk;
  }

  private void page(ObjectStore store, PartitionKeys keys, CatalogIdentity identity, IndexEntry ref, long parentEpoch) {
    String key = keys.page(ref.level(), ref.seqLo(), ref.seqHi(), ref.generation(), ref.pageId().toBytes());
    DecodedPage decoded = CatalogCodec.decodeChild(store.get(key).bytes(), ref, parentEpoch, identity);
    pages.put(key, decoded);
    maxLevel = Math.max(maxLevel, ref.level());
    if (decoded.page() instanceof LeafPage leaf) {
      leaves.addAll(leaf.entries());
      return;
    }
    for (IndexEntry child : decoded.index().entries()) {
      page(store, keys, identity, child, decoded.page().header().writerEpoch());
    }
  }

  /** Checks the walk's leaves are exactly {@code expected} and the head's counters agree. */
  void assertHolds(List<LeafEntry> expected) {
    assertThat(leaves).containsExactlyElementsOf(expected);
    assertThat(head.reachableSegmentCount()).isEqualTo(expected.size());
    if (!expected.isEmpty()) {
      LeafEntry last = expected.get(expected.size() - 1);
      assertThat(head.lastSegment()).isEqualTo(last);
      assertThat(head.nextLsn()).isEqualTo(last.lastLsn() + 1);
      assertThat(head.oldestLsn()).isEqualTo(expected.get(0).baseLsn());
    }
  }
}
