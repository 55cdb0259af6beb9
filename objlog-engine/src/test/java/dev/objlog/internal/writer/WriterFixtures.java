package dev.objlog.internal.writer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionHead;
import dev.objlog.WriterOptions;
import dev.objlog.format.catalog.CatalogCodec;
import dev.objlog.format.catalog.CatalogIdentity;
import dev.objlog.format.catalog.DecodedPage;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.IndexEntry;
import dev.objlog.format.catalog.Key256;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.catalog.LeafPage;
import dev.objlog.format.catalog.Root;
import dev.objlog.format.key.KeyPrefixes;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.format.key.StreamIds;
import dev.objlog.format.segment.RangeReader;
import dev.objlog.format.segment.SegmentReader;
import dev.objlog.format.segment.SegmentRecord;
import dev.objlog.format.segment.SegmentTrailer;
import dev.objlog.store.ListPage;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import dev.objlog.store.memory.MemoryObjectStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Shared fixtures of the writer tests: stores, logs, options, and an independent reading of what
 * a writer committed that uses only the store and {@code dev.objlog.format} (head → pages →
 * segments), never the writer's memory or the catalog engine.
 */
public final class WriterFixtures {
  private WriterFixtures() {}

  public static final String STREAM = "tests/writer";
  public static final int PARTITION = 3;

  /** The two stores every scenario runs on. */
  enum StoreKind {
    MEMORY,
    FILESYSTEM;

    ObjectStore open(Path dir) {
      return this == MEMORY ? new MemoryObjectStore() : FilesystemObjectStore.open(dir.resolve("bucket"));
    }
  }

  public static ObjlogOptions.Builder logOptions() {
    return ObjlogOptions.builder().prefix("t");
  }

  static Objlog open(ObjectStore store) {
    return Objlog.open(store, STREAM, logOptions().build());
  }

  /** Batches cut by explicit calls or count only (no age limit), so tests decide segment shapes. */
  public static WriterOptions.Builder manualCuts() {
    return WriterOptions.builder().batch(Duration.ZERO, 64L << 20, 16_384);
  }

  public static LogRecord record(long ts, String value) {
    return LogRecord.of(ts, value);
  }

  public static <T> T await(CompletableFuture<T> future) {
    try {
      return future.get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("future did not complete normally within 30 s", e);
    }
  }

  public static Throwable awaitFailure(CompletableFuture<?> future) {
    try {
      future.get(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      throw new AssertionError("future did not fail within 30 s", e);
    }
    throw new AssertionError("future completed normally, expected a failure");
  }

  public static PartitionKeys keys(int partition) {
    return PartitionKeys.of(KeyPrefixes.resolve("t", "", ""), STREAM, partition);
  }

  static CatalogIdentity identity(int partition) {
    KeyPrefixes prefixes = KeyPrefixes.resolve("t", "", "");
    return new CatalogIdentity(partition, Key256.of(StreamIds.streamKey(STREAM)),
        Key256.of(prefixes.dataRootKey()));
  }

  /** What the bucket says is committed: the head, its segments in LSN order, their records. */
  public record Committed(Head head, List<LeafEntry> segments, List<SegmentRecord> records, int maxPageLevel) {
    public List<String> values() {
      List<String> out = new ArrayList<>();
      for (SegmentRecord r : records) {
        out.add(new String(r.value(), StandardCharsets.UTF_8));
      }
      return out;
    }

    public List<Long> lsns() {
      return records.stream().map(SegmentRecord::lsn).toList();
    }
  }

  /** Reads the partition from the store with the format packages only, checking every link. */
  public static Committed readCommitted(ObjectStore store, int partition) {
    PartitionKeys keys = keys(partition);
    CatalogIdentity identity = identity(partition);
    Head head = CatalogCodec.decodeHead(store.get(keys.head()).bytes(), identity);
    List<LeafEntry> segments = new ArrayList<>();
    int[] maxLevel = {-1};
    for (Root root : head.roots()) {
      if (root instanceof Root.LeafRoot leaf) {
        segments.add(leaf.entry());
      } else {
        walk(store, keys, identity, ((Root.PageRoot) root).reference(), head.writerEpoch(), segments, maxLevel);
      }
    }
    List<SegmentRecord> records = new ArrayList<>();
    for (LeafEntry entry : segments) {
      String key = keys.segment(entry.baseLsn(), entry.writerEpoch(), entry.segmentUuid().toBytes());
      byte[] bytes = store.get(key).bytes();
      SegmentReader reader = SegmentReader.open(RangeReader.ofBytes(bytes), bytes.length);
      reader.verifySegmentHash();
      SegmentTrailer t = reader.trailer();
      assertThat(t.baseLsn()).isEqualTo(entry.baseLsn());
      assertThat(t.lastLsn()).isEqualTo(entry.lastLsn());
      assertThat(t.segmentHash()).isEqualTo(entry.segmentHash());
      assertThat(t.trailerHash()).isEqualTo(entry.trailerHash());
      assertThat(t.totalSize()).isEqualTo(entry.sizeBytes());
      assertThat(t.segmentUuid()).isEqualTo(entry.segmentUuid().toBytes());
      assertThat(t.writerTag()).isEqualTo(entry.writerTag().toBytes());
      for (Iterator<SegmentRecord> it = reader.records(); it.hasNext(); ) {
        records.add(it.next());
      }
    }
    for (int i = 1; i < segments.size(); i++) {
      assertThat(segments.get(i).baseLsn()).as("segments are contiguous")
          .isEqualTo(segments.get(i - 1).lastLsn() + 1);
    }
    for (int i = 1; i < records.size(); i++) {
      assertThat(records.get(i).lsn()).as("LSNs are dense").isEqualTo(records.get(i - 1).lsn() + 1);
    }
    if (!segments.isEmpty()) {
      assertThat(head.nextLsn()).isEqualTo(segments.get(segments.size() - 1).lastLsn() + 1);
    }
    return new Committed(head, segments, records, maxLevel[0]);
  }

  private static void walk(ObjectStore store, PartitionKeys keys, CatalogIdentity identity, IndexEntry ref,
      long parentEpoch, List<LeafEntry> out, int[] maxLevel) {
    String key = keys.page(ref.level(), ref.seqLo(), ref.seqHi(), ref.generation(), ref.pageId().toBytes());
    DecodedPage decoded = CatalogCodec.decodeChild(store.get(key).bytes(), ref, parentEpoch, identity);
    maxLevel[0] = Math.max(maxLevel[0], ref.level());
    if (decoded.page() instanceof LeafPage leaf) {
      out.addAll(leaf.entries());
      return;
    }
    for (IndexEntry child : decoded.index().entries()) {
      walk(store, keys, identity, child, decoded.page().header().writerEpoch(), out, maxLevel);
    }
  }

  /** Every segment object stored for the partition, referenced or not. */
  public static List<String> segmentObjects(ObjectStore store, int partition) {
    String prefix = keys(partition).segmentsDir();
    List<String> out = new ArrayList<>();
    String after = "";
    while (true) {
      ListPage page = store.list(prefix, after, 1000);
      for (ObjectMetadata m : page.entries()) {
        out.add(m.key());
      }
      if (!page.hasMore() || page.nextAfterKey() == null) {
        return out;
      }
      after = page.nextAfterKey();
    }
  }

  static String segmentKey(int partition, LeafEntry entry) {
    return keys(partition).segment(entry.baseLsn(), entry.writerEpoch(), entry.segmentUuid().toBytes());
  }

  static PartitionHead headOf(Objlog log, int partition) {
    return log.head(partition).orElseThrow();
  }
}
