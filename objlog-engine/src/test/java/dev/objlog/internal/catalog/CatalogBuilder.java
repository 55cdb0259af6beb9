package dev.objlog.internal.catalog;

import dev.objlog.format.HashAlgorithm;
import dev.objlog.format.catalog.CatalogCodec;
import dev.objlog.format.catalog.CatalogFormat;
import dev.objlog.format.catalog.CatalogIdentity;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.Id128;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.store.CasResult;
import dev.objlog.store.CreateResult;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.StoredObject;
import dev.objlog.store.VersionToken;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Test support, shared with the benchmarks through the engine's test jar: builds a partition's
 * catalog of many synthetic segments directly, in large groups, instead of one commit per
 * segment. Each group goes through the very carry/cascade of a publish ({@link
 * CatalogMutations#append}), its sealed pages are stored create-only, then the head is swapped
 * once per group; so the pages and the head are exactly what the same segments published as
 * those groups would leave, at a fraction of the head writes. Ten million segments take minutes
 * instead of hours. Nothing is retried: a failed store call is the caller's failure.
 *
 * <p>Segment {@code i} (counting from the partition's first) covers {@code recordsPerSegment}
 * records from LSN {@code i × recordsPerSegment}, timestamps {@code ts0 + i} to itself; its
 * sizes and hashes are derived from {@code i} so that every entry is distinct.
 *
 * <p>Thread-safety: not thread-safe; confine a builder to one thread, and let nothing else write
 * the partition while it runs (it swaps against the token it last wrote).
 */
public final class CatalogBuilder {
  /** Segments per group: 8 full leaf pages of 1024 entries at most, so a group's pages stay small. */
  private static final int GROUP = 8 * CatalogFormat.MAX_LEAF_ENTRIES;

  private final ObjectStore store;
  private final PartitionKeys keys;
  private final long recordsPerSegment;
  private final long ts0;
  private Head head;
  private VersionToken token;
  private long pagesWritten;

  private CatalogBuilder(ObjectStore store, PartitionKeys keys, Head head, VersionToken token,
      long recordsPerSegment, long ts0) {
    this.store = store;
    this.keys = keys;
    this.head = head;
    this.token = token;
    this.recordsPerSegment = recordsPerSegment;
    this.ts0 = ts0;
  }

  /**
   * Initializes an empty partition at LSN 0 in {@code store} and takes its fence over with
   * {@code writerId}, as a writer would; then {@link #append} adds segments.
   *
   * @throws IllegalStateException if the partition already has a head
   */
  public static CatalogBuilder create(ObjectStore store, PartitionKeys keys, CatalogIdentity identity,
      CatalogOptions options, Id128 writerId, long recordsPerSegment, long ts0) {
    Head empty = CatalogMutations.emptyHead(identity, options, 0);
    if (!(store.putIfAbsent(keys.head(), CatalogCodec.encodeHead(empty))
        instanceof CreateResult.Created)) {
      throw new IllegalStateException("the partition already has a head: " + keys.head());
    }
    StoredObject created = store.get(keys.head());
    CatalogBuilder b = new CatalogBuilder(store, keys, empty, created.token(), recordsPerSegment, ts0);
    Head fenced = CatalogMutations.takeover(empty, writerId);
    b.swap(fenced, CatalogCodec.encodeHead(fenced));
    return b;
  }

  /** Appends {@code count} segments after those already built, in groups; returns this. */
  public CatalogBuilder append(long count) {
    long done = 0;
    while (done < count) {
      int n = (int) Math.min(GROUP, count - done);
      List<LeafEntry> group = new ArrayList<>(n);
      long first = head.segmentCount();
      for (int k = 0; k < n; k++) {
        group.add(entry(first + k));
      }
      Mutation m = CatalogMutations.append(head, group, keys);
      for (Mutation.PageObject page : m.pages()) {
        if (!(store.putIfAbsent(page.key(), page.page().bytes()) instanceof CreateResult.Created)) {
          throw new IllegalStateException("page already stored: " + page.key());
        }
        pagesWritten++;
      }
      swap(m.head(), m.headBytes());
      done += n;
    }
    return this;
  }

  private void swap(Head next, byte[] bytes) {
    CasResult r = store.compareAndSwap(keys.head(), token, bytes);
    if (!(r instanceof CasResult.Swapped swapped)) {
      throw new IllegalStateException("the head changed under the builder: " + keys.head());
    }
    token = swapped.token();
    head = next;
  }

  /** The entry of segment {@code i}, as a writer of the current fence would publish it. */
  private LeafEntry entry(long i) {
    long base = i * recordsPerSegment;
    return new LeafEntry(base, base + recordsPerSegment - 1, ts0 + i, ts0 + i, recordsPerSegment, 1,
        40_000 + (i & 0xff), 39_000, 128, CatalogFormat.CODEC_ZSTD, HashAlgorithm.XXH64.id(),
        0x0102030405060708L + i, 0x1112131415161718L + i, head.writerEpoch(),
        Id128.of(ByteBuffer.allocate(16).putLong(0x5e65e65e65e6L).putLong(i + 1).array()), head.writerId());
  }

  /** The head as last written. */
  public Head head() {
    return head;
  }

  /** Pages stored so far. */
  public long pagesWritten() {
    return pagesWritten;
  }
}
