package dev.objlog.internal.catalog;

import dev.objlog.CorruptObjectException;
import dev.objlog.IntegrityException;
import dev.objlog.MemoryPart;
import dev.objlog.format.catalog.CatalogCodec;
import dev.objlog.format.catalog.CatalogIdentity;
import dev.objlog.format.catalog.DecodedPage;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.IndexEntry;
import dev.objlog.format.catalog.IndexPage;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.catalog.LeafPage;
import dev.objlog.format.catalog.Root;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.internal.cache.ByteWeightedCache;
import dev.objlog.internal.memory.MemoryPool;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.StoredObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Read-side walks over one partition's catalog tree (FORMAT.md §2.11, §2.12): lookups by LSN and
 * by timestamp, listing, and full verification. Every page is checked against the reference that
 * led to it (page id, header fields, epoch no greater than its parent's) before it is used.
 * Lookups go through the shared decoded-page cache; verification reads every page from the store.
 *
 * <p>Thread-safety: stateless apart from the shared cache; safe for concurrent use.
 */
final class CatalogTree {
  /** Default and maximum page size of {@link #listSegments}, as in the Go reader. */
  static final int DEFAULT_LIST_LIMIT = 128;

  static final int MAX_LIST_LIMIT = 1024;

  /** Approximate per-entry overhead of a cached decoded page beyond its encoded bytes. */
  private static final int CACHE_OVERHEAD_BYTES = 256;

  private final ObjectStore store;
  private final PartitionKeys keys;
  private final CatalogIdentity identity;
  private final ByteWeightedCache<String, DecodedPage> pages;

  CatalogTree(
      ObjectStore store,
      PartitionKeys keys,
      CatalogIdentity identity,
      ByteWeightedCache<String, DecodedPage> pages) {
    this.store = store;
    this.keys = keys;
    this.identity = identity;
    this.pages = pages;
  }

  static ByteWeightedCache<String, DecodedPage> newPageCache(long maxBytes, @Nullable MemoryPool memory) {
    return ByteWeightedCache.create(
        maxBytes, page -> page.page().encodedSize() + CACHE_OVERHEAD_BYTES, memory, MemoryPart.CATALOG_PAGES);
  }

  String pageKey(IndexEntry reference) {
    return keys.page(reference.level(), reference.seqLo(), reference.seqHi(),
        reference.generation(), reference.pageId().toBytes());
  }

  /**
   * The page {@code reference} points to, from the cache or the store, checked against the
   * reference. A hit is re-checked against the reference (cheap field comparisons) because the
   * same page may be reached from parents with different epochs.
   *
   * @throws ObjectNotFoundException if the page is missing (readers refresh the head and retry)
   * @throws CorruptObjectException if the page is invalid or does not match the reference
   */
  DecodedPage loadChild(IndexEntry reference, long parentWriterEpoch) {
    String key = pageKey(reference);
    DecodedPage page = pages.get(key, k -> fetch(k, reference, parentWriterEpoch));
    CatalogCodec.checkChild(page, reference, parentWriterEpoch, identity);
    return page;
  }

  private DecodedPage fetch(String key, IndexEntry reference, long parentWriterEpoch) {
    StoredObject object = store.get(key);
    return CatalogCodec.decodeChild(object.bytes(), reference, parentWriterEpoch, identity);
  }

  // ---------------------------------------------------------------- lookups

  /**
   * The segment containing {@code lsn}, or empty when the head holds no such segment: {@code lsn}
   * at or beyond next_lsn, below the retention floor, or the partition is empty. The caller tells
   * "expired" (below {@code head.oldestLsn()}) from "not yet written".
   */
  Optional<LeafEntry> findSegment(Head head, long lsn) {
    if (!head.hasLastSegment()
        || Long.compareUnsigned(lsn, head.oldestLsn()) < 0
        || Long.compareUnsigned(lsn, head.nextLsn()) >= 0) {
      return Optional.empty();
    }
    LeafEntry found =
        descend(head, r -> Long.compareUnsigned(r.seqHi(), lsn) >= 0,
            e -> Long.compareUnsigned(e.seqHi(), lsn) >= 0,
            e -> Long.compareUnsigned(e.lastLsn(), lsn) >= 0);
    if (found == null || !found.contains(lsn)) {
      throw new CorruptObjectException("catalog: the tree has no segment for LSN "
          + Long.toUnsignedString(lsn) + " inside the head's range [" + Long.toUnsignedString(head.oldestLsn())
          + "," + Long.toUnsignedString(head.nextLsn()) + ")");
    }
    return Optional.of(found);
  }

  /**
   * The earliest reachable segment whose last timestamp is at or after {@code timestampMs}, or
   * empty when nothing reachable is that recent. Valid because timestamps never decrease along
   * the log; with equal timestamps across a segment boundary the earlier segment is returned.
   */
  Optional<LeafEntry> findSegmentByTimestamp(Head head, long timestampMs) {
    LeafEntry last = head.lastSegment();
    if (last == null || head.reachableSegmentCount() == 0 || timestampMs > last.maxTimestampMs()) {
      return Optional.empty();
    }
    LeafEntry found =
        descend(head, r -> r.maxTimestampMs() >= timestampMs,
            e -> e.maxTimestampMs() >= timestampMs,
            e -> e.maxTimestampMs() >= timestampMs);
    if (found == null) {
      throw new CorruptObjectException("catalog: the tree has no segment at or after timestamp "
          + timestampMs + " although the last segment ends at " + last.maxTimestampMs());
    }
    return Optional.of(found);
  }

  /**
   * Whether the tree under {@code head} holds, at page level {@code level}, the page with id
   * {@code pageIdHex} whose last LSN is {@code seqHi}: at every level only one page covers a given
   * LSN, so one descent towards {@code seqHi} finds the only candidate.
   */
  boolean referencesPage(Head head, int level, long seqHi, String pageIdHex) {
    if (head.reachableSegmentCount() == 0
        || Long.compareUnsigned(seqHi, head.oldestLsn()) < 0
        || Long.compareUnsigned(seqHi, head.nextLsn()) >= 0) {
      return false;
    }
    List<Root> roots = head.roots();
    int i = firstMatch(roots, r -> Long.compareUnsigned(r.seqHi(), seqHi) >= 0);
    if (i == roots.size() || !(roots.get(i) instanceof Root.PageRoot pageRoot)) {
      return false;
    }
    IndexEntry reference = pageRoot.reference();
    long parentEpoch = head.writerEpoch();
    while (true) {
      if (reference.level() == level) {
        return reference.seqHi() == seqHi && reference.pageId().hex().equals(pageIdHex);
      }
      if (reference.level() < level) {
        return false;
      }
      DecodedPage decoded = loadChild(reference, parentEpoch);
      parentEpoch = decoded.page().header().writerEpoch();
      List<IndexEntry> entries = decoded.index().entries();
      int j = firstMatch(entries, e -> Long.compareUnsigned(e.seqHi(), seqHi) >= 0);
      if (j == entries.size()) {
        return false;
      }
      reference = entries.get(j);
    }
  }

  /**
   * Descends from the first root matching {@code rootProbe} through the first matching entry of
   * every page. The probes are monotone along the log (false, then true), so binary search finds
   * the first match at every level. Returns null if no root matches.
   */
  private @Nullable LeafEntry descend(
      Head head,
      Predicate<Root> rootProbe,
      Predicate<IndexEntry> refProbe,
      Predicate<LeafEntry> leafProbe) {
    List<Root> roots = head.roots();
    int i = firstMatch(roots, rootProbe);
    if (i == roots.size()) {
      return null;
    }
    Root root = roots.get(i);
    if (root instanceof Root.LeafRoot leafRoot) {
      return leafRoot.entry();
    }
    IndexEntry reference = ((Root.PageRoot) root).reference();
    long parentEpoch = head.writerEpoch();
    while (true) {
      DecodedPage decoded = loadChild(reference, parentEpoch);
      parentEpoch = decoded.page().header().writerEpoch();
      if (decoded.page() instanceof LeafPage leaf) {
        int j = firstMatch(leaf.entries(), leafProbe);
        if (j == leaf.entries().size()) {
          throw mismatch(reference);
        }
        return leaf.entries().get(j);
      }
      IndexPage index = decoded.index();
      int j = firstMatch(index.entries(), refProbe);
      if (j == index.entries().size()) {
        throw mismatch(reference);
      }
      reference = index.entries().get(j);
    }
  }

  private static CorruptObjectException mismatch(IndexEntry reference) {
    return new CorruptObjectException("catalog: page " + reference.pageId()
        + " holds no entry inside the range its reference promises: " + reference);
  }

  private static <T> int firstMatch(List<T> items, Predicate<? super T> probe) {
    int lo = 0;
    int hi = items.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (probe.test(items.get(mid))) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  /**
   * Up to {@code limit} segments (default 128 when ≤ 0, capped at 1024) starting with the one
   * that contains {@code fromLsn}; a request below the retention floor starts at the floor (the
   * caller checks expiry against {@code head.oldestLsn()} first, as for {@link #findSegment}).
   * Loads only the pages on the way; stops as soon as the page is full.
   */
  SegmentListing listSegments(Head head, long fromLsn, int limit) {
    int max = limit <= 0 ? DEFAULT_LIST_LIMIT : Math.min(limit, MAX_LIST_LIMIT);
    if (!head.hasLastSegment()
        || head.reachableSegmentCount() == 0
        || Long.compareUnsigned(fromLsn, head.nextLsn()) >= 0) {
      long next = Long.compareUnsigned(fromLsn, head.nextLsn()) >= 0 ? fromLsn : head.nextLsn();
      return new SegmentListing(List.of(), next, false);
    }
    long from = Long.compareUnsigned(fromLsn, head.oldestLsn()) < 0 ? head.oldestLsn() : fromLsn;
    List<LeafEntry> out = new ArrayList<>(Math.min(max, 64));
    List<Root> roots = head.roots();
    int i = firstMatch(roots, r -> Long.compareUnsigned(r.seqHi(), from) >= 0);
    for (; i < roots.size() && out.size() < max; i++) {
      Root root = roots.get(i);
      if (root instanceof Root.LeafRoot leafRoot) {
        out.add(leafRoot.entry());
      } else {
        collect(((Root.PageRoot) root).reference(), head.writerEpoch(), from, max, out);
      }
    }
    if (out.isEmpty()) {
      throw new CorruptObjectException("catalog: the tree lists no segment from LSN "
          + Long.toUnsignedString(from) + " inside the head's range");
    }
    long next = out.get(out.size() - 1).lastLsn() + 1;
    return new SegmentListing(out, next, Long.compareUnsigned(next, head.nextLsn()) < 0);
  }

  private void collect(IndexEntry reference, long parentEpoch, long from, int max, List<LeafEntry> out) {
    DecodedPage decoded = loadChild(reference, parentEpoch);
    long epoch = decoded.page().header().writerEpoch();
    if (decoded.page() instanceof LeafPage leaf) {
      List<LeafEntry> entries = leaf.entries();
      int j = firstMatch(entries, e -> Long.compareUnsigned(e.lastLsn(), from) >= 0);
      for (; j < entries.size() && out.size() < max; j++) {
        out.add(entries.get(j));
      }
      return;
    }
    List<IndexEntry> entries = decoded.index().entries();
    int j = firstMatch(entries, e -> Long.compareUnsigned(e.seqHi(), from) >= 0);
    for (; j < entries.size() && out.size() < max; j++) {
      collect(entries.get(j), epoch, from, max, out);
    }
  }

  // ---------------------------------------------------------------- verification

  /**
   * Full tree verification (FORMAT.md §2.12): the head's rules and identity; every reachable page
   * read from the store (never from the cache, so the bucket's bytes are what is checked),
   * decoded with every page rule and checked against its reference; generations no greater than
   * the head's; the concatenation of all leaf entries in traversal order equal to [oldest, next)
   * without gaps, with timestamps and epochs never decreasing, epochs no greater than the head's,
   * and as many entries as the head's reachable count; subtree counts matching their references;
   * and the last segment equal to the rightmost leaf entry.
   *
   * @throws CorruptObjectException naming the page (key) and the rule that is broken; a missing
   *     page is reported the same way
   */
  TreeReport verifyTree(Head head) {
    return verifyTree(head, TreeVisitor.NONE);
  }

  /** {@link #verifyTree(Head)}, telling {@code visitor} of each page and segment as it is checked. */
  TreeReport verifyTree(Head head, TreeVisitor visitor) {
    try {
      CatalogCodec.validateHead(head);
      CatalogCodec.checkIdentity(head, identity);
    } catch (CorruptObjectException e) {
      throw new CorruptObjectException("tree verification: head: " + e.getMessage(), e);
    }
    Verifier verifier = new Verifier(head, visitor);
    for (Root root : head.roots()) {
      if (root instanceof Root.LeafRoot leafRoot) {
        verifier.leaf(leafRoot.entry(), "head active entry");
      } else {
        IndexEntry reference = ((Root.PageRoot) root).reference();
        verifier.page(reference, head.writerEpoch(), "head section level " + (reference.level() + 1));
      }
    }
    return verifier.finish();
  }

  private final class Verifier {
    private final Head head;
    private final TreeVisitor visitor;
    private @Nullable LeafEntry previous;
    private long segments;
    private long leafPages;
    private long indexPages;
    private long bytes;
    private int levels;

    Verifier(Head head, TreeVisitor visitor) {
      this.head = head;
      this.visitor = visitor;
    }

    void page(IndexEntry reference, long parentEpoch, String from) {
      String key = pageKey(reference);
      DecodedPage decoded;
      long size;
      try {
        byte[] body = store.get(key).bytes();
        size = body.length;
        decoded = CatalogCodec.decodeChild(body, reference, parentEpoch, identity);
      } catch (ObjectNotFoundException e) {
        throw new CorruptObjectException("tree verification: page " + key + " referenced from "
            + from + " is missing", e);
      } catch (CorruptObjectException e) {
        String message =
            "tree verification: page " + key + " referenced from " + from + ": " + e.getMessage();
        // Keep the kind: an integrity failure (hash, page id, reference mismatch) stays one.
        CorruptObjectException wrapped =
            e instanceof IntegrityException ? new IntegrityException(message) : new CorruptObjectException(message);
        wrapped.initCause(e);
        throw wrapped;
      }
      bytes += size;
      levels = Math.max(levels, reference.level() + 1);
      long generation = decoded.page().header().generation();
      if (Long.compareUnsigned(generation, head.generation()) > 0) {
        throw new CorruptObjectException("tree verification: page " + key + " generation "
            + Long.toUnsignedString(generation) + " exceeds the head's "
            + Long.toUnsignedString(head.generation()));
      }
      long epoch = decoded.page().header().writerEpoch();
      visitor.page(key);
      if (decoded.page() instanceof LeafPage leaf) {
        leafPages++;
        for (LeafEntry entry : leaf.entries()) {
          leaf(entry, "leaf page " + key);
        }
        return;
      }
      indexPages++;
      for (IndexEntry child : decoded.index().entries()) {
        page(child, epoch, "index page " + key);
      }
    }

    void leaf(LeafEntry entry, String where) {
      if (previous == null) {
        if (entry.baseLsn() != head.oldestLsn()) {
          throw broken(where, "the first segment " + entry + " does not start at oldest_lsn "
              + Long.toUnsignedString(head.oldestLsn()));
        }
      } else {
        if (entry.baseLsn() != previous.lastLsn() + 1) {
          throw broken(where, "segment " + entry + " does not follow " + previous);
        }
        if (entry.minTimestampMs() < previous.maxTimestampMs()) {
          throw broken(where, "timestamps decrease from " + previous + " to " + entry);
        }
        if (Long.compareUnsigned(entry.writerEpoch(), previous.writerEpoch()) < 0) {
          throw broken(where, "writer epochs decrease from " + previous + " to " + entry);
        }
      }
      if (Long.compareUnsigned(entry.writerEpoch(), head.writerEpoch()) > 0) {
        throw broken(where, "segment " + entry + " has an epoch above the head's fence");
      }
      previous = entry;
      segments++;
      visitor.segment(entry);
    }

    TreeReport finish() {
      if (segments != head.reachableSegmentCount()) {
        throw broken("tree", "the leaves hold " + segments
            + " segments but the head's reachable count is "
            + Long.toUnsignedString(head.reachableSegmentCount()));
      }
      if (previous != null) {
        if (!previous.equals(head.lastSegment())) {
          throw broken("tree", "the rightmost leaf entry " + previous
              + " differs from the head's last segment " + head.lastSegment());
        }
        if (previous.lastLsn() + 1 != head.nextLsn()) {
          throw broken("tree", "the leaves end at " + Long.toUnsignedString(previous.lastLsn())
              + " but next_lsn is " + Long.toUnsignedString(head.nextLsn()));
        }
      }
      return new TreeReport(leafPages, indexPages, bytes, segments, levels);
    }

    private CorruptObjectException broken(String where, String rule) {
      return new CorruptObjectException("tree verification: " + where + ": " + rule);
    }
  }
}
