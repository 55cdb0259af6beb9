package dev.objlog.lifecycle;

import dev.objlog.format.catalog.DecodedPage;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.IndexEntry;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.catalog.LeafPage;
import dev.objlog.format.catalog.Root;
import dev.objlog.format.catalog.CatalogCodec;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.store.ListPage;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ObjectStore;
import dev.objlog.testing.LogFixture;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** Inventories of a bucket, and the set of objects a head references. */
final class Bucket {
  private Bucket() {}

  /** Every object under {@code prefix}: key → size. */
  static TreeMap<String, Long> list(ObjectStore store, String prefix) {
    TreeMap<String, Long> out = new TreeMap<>();
    String after = "";
    while (true) {
      ListPage page = store.list(prefix, after, 1000);
      for (ObjectMetadata m : page.entries()) {
        out.put(m.key(), m.size());
      }
      if (!page.hasMore()) {
        return out;
      }
      after = page.nextAfterKey();
    }
  }

  static long bytes(Map<String, Long> objects) {
    return objects.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Keys of every segment and page reachable from the partition's head, plus the head itself. */
  static TreeSet<String> reachable(LogFixture f, int partition) {
    PartitionKeys keys = f.keys(partition);
    Head head = f.head(partition);
    TreeSet<String> out = new TreeSet<>();
    out.add(keys.head());
    for (Root root : head.roots()) {
      if (root instanceof Root.LeafRoot leaf) {
        out.add(f.segmentKey(partition, leaf.entry()));
      } else {
        walk(f, keys, partition, ((Root.PageRoot) root).reference(), head.writerEpoch(), out);
      }
    }
    return out;
  }

  private static void walk(LogFixture f, PartitionKeys keys, int partition, IndexEntry ref,
      long parentEpoch, TreeSet<String> out) {
    String key = keys.page(ref.level(), ref.seqLo(), ref.seqHi(), ref.generation(), ref.pageId().toBytes());
    out.add(key);
    DecodedPage page = CatalogCodec.decodeChild(f.store.get(key).bytes(), ref, parentEpoch,
        f.catalog(partition).identity());
    if (page.page() instanceof LeafPage leaf) {
      for (LeafEntry e : leaf.entries()) {
        out.add(f.segmentKey(partition, e));
      }
      return;
    }
    for (IndexEntry child : page.index().entries()) {
      walk(f, keys, partition, child, page.page().header().writerEpoch(), out);
    }
  }
}
