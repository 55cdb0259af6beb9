package dev.objlog.internal.read;

import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.ObjlogTestAccess;
import dev.objlog.format.HashAlgorithm;
import dev.objlog.format.catalog.Id128;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.format.segment.Codec;
import dev.objlog.format.segment.RecordHeader;
import dev.objlog.format.segment.SegmentEncoder;
import dev.objlog.format.segment.SegmentEncoderOptions;
import dev.objlog.format.segment.SegmentRecord;
import dev.objlog.format.segment.SegmentTrailer;
import dev.objlog.internal.LogRuntime;
import dev.objlog.internal.catalog.FencedSession;
import dev.objlog.internal.catalog.HeadSnapshot;
import dev.objlog.store.CreateResult;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import dev.objlog.store.memory.MemoryObjectStore;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Builds committed logs for reader tests while the writer is not available: segments are encoded
 * with the real {@link SegmentEncoder}, stored create-only under their layout-v1 key and committed
 * through a fenced catalog session, exactly as a writer would.
 *
 * <p>Record {@code lsn} of partition {@code p} has the value {@code "p<p>-<lsn>"}; every third
 * record carries a header {@code k=<lsn>}.
 */
public final class TestLog implements AutoCloseable {
  public static final String STREAM = "demo/orders";
  private static final AtomicLong UUIDS = new AtomicLong(1);

  /** The stores the reader scenarios run on. */
  public enum StoreKind {
    MEMORY,
    FILESYSTEM;

    public ObjectStore open(Path dir) {
      return this == MEMORY ? new MemoryObjectStore() : FilesystemObjectStore.open(dir.resolve("bucket"));
    }
  }

  public final ObjectStore store;
  public final Objlog log;
  public final LogRuntime runtime;

  private TestLog(ObjectStore store, Objlog log) {
    this.store = store;
    this.log = log;
    this.runtime = ObjlogTestAccess.runtime(log);
  }

  /** A log with small catalog pages (2 segments per leaf, 2 refs per index page) and no sleeping. */
  public static TestLog open(ObjectStore store) {
    return open(store, ObjlogOptions.builder());
  }

  public static TestLog open(ObjectStore store, ObjlogOptions.Builder options) {
    return new TestLog(store, Objlog.open(store, STREAM,
        options.prefix("t").catalogLimits(2, 2).sleeper(d -> {}).build()));
  }

  /** Takes partition {@code partition} over as a new writer. */
  public Writer writer(int partition) {
    byte[] id = ByteBuffer.allocate(16).putLong(0x77726974L).putLong(UUIDS.getAndIncrement()).array();
    return new Writer(partition, runtime.catalog(partition).takeover(Id128.of(id)));
  }

  public static String value(int partition, long lsn) {
    return "p" + partition + "-" + Long.toUnsignedString(lsn);
  }

  @Override
  public void close() {
    log.close();
  }

  /** A fenced session that commits segments built from timestamps. */
  public final class Writer {
    public final int partition;
    public final FencedSession session;
    public final PartitionKeys keys;
    private int blockBytes = 200;

    Writer(int partition, FencedSession session) {
      this.partition = partition;
      this.session = session;
      this.keys = runtime.keys(partition);
    }

    /** Target raw block size of later segments (small by default: several blocks per segment). */
    public Writer blockBytes(int value) {
      blockBytes = value;
      return this;
    }

    public long nextLsn() {
      return session.head().head().nextLsn();
    }

    /** Commits one segment with one record per timestamp; returns the committed head. */
    public HeadSnapshot commit(long... timestamps) {
      return commitGroup(List.of(timestamps));
    }

    /** Commits {@code segments} segments of {@code perSegment} records, timestamps rising by 1 from {@code ts}. */
    public HeadSnapshot commitSegments(int segments, int perSegment, long ts) {
      List<long[]> group = new ArrayList<>();
      long t = ts;
      for (int s = 0; s < segments; s++) {
        long[] stamps = new long[perSegment];
        for (int i = 0; i < perSegment; i++) {
          stamps[i] = t++;
        }
        group.add(stamps);
      }
      return commitGroup(group);
    }

    /** Commits several segments with one head swap. */
    public HeadSnapshot commitGroup(List<long[]> segments) {
      List<LeafEntry> entries = new ArrayList<>();
      long base = nextLsn();
      for (long[] stamps : segments) {
        entries.add(upload(base, stamps));
        base += stamps.length;
      }
      session.publish(entries);
      return session.head();
    }

    /** Announces the session's head on the local commit bus, as a writer in this JVM does. */
    public void announce() {
      runtime.commitBus().published(keys.head(), session.head());
    }

    private LeafEntry upload(long base, long[] stamps) {
      byte[] uuid = ByteBuffer.allocate(16).putLong(0x5e6L).putLong(UUIDS.getAndIncrement()).array();
      byte[] tag = session.writerId().toBytes();
      SegmentEncoderOptions options = new SegmentEncoderOptions(Integer.toUnsignedLong(partition), Codec.ZSTD,
          HashAlgorithm.XXH64, 1, blockBytes, 1_700_000_000_000L, uuid, tag);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      SegmentTrailer trailer;
      try (SegmentEncoder encoder = new SegmentEncoder(options, out::write)) {
        for (int i = 0; i < stamps.length; i++) {
          long lsn = base + i;
          List<RecordHeader> headers = lsn % 3 == 0
              ? List.of(new RecordHeader("k".getBytes(StandardCharsets.UTF_8),
                  Long.toString(lsn).getBytes(StandardCharsets.UTF_8)))
              : List.of();
          encoder.append(new SegmentRecord(lsn, stamps[i], headers,
              value(partition, lsn).getBytes(StandardCharsets.UTF_8)));
        }
        trailer = encoder.finish();
      }
      long epoch = session.writerEpoch();
      String key = keys.segment(base, epoch, uuid);
      if (!(store.putIfAbsent(key, out.toByteArray()) instanceof CreateResult.Created)) {
        throw new IllegalStateException("segment key taken: " + key);
      }
      return new LeafEntry(trailer.baseLsn(), trailer.lastLsn(), trailer.minTimestampMs(),
          trailer.maxTimestampMs(), trailer.recordCount(), trailer.blockCount(), trailer.totalSize(),
          trailer.blockIndexOffset(), trailer.blockIndexLength(), trailer.codec().id(),
          trailer.hashAlgorithm().id(), trailer.segmentHash(), trailer.trailerHash(), epoch,
          Id128.of(uuid), Id128.of(tag));
    }
  }
}
