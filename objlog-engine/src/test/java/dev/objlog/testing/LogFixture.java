package dev.objlog.testing;

import dev.objlog.LsnExpiredException;
import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.ObjlogTestAccess;
import dev.objlog.format.HashAlgorithm;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.Id128;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.format.segment.Codec;
import dev.objlog.format.segment.RangeReader;
import dev.objlog.format.segment.SegmentEncoder;
import dev.objlog.format.segment.SegmentEncoderOptions;
import dev.objlog.format.segment.SegmentReader;
import dev.objlog.format.segment.SegmentReaderOptions;
import dev.objlog.format.segment.SegmentRecord;
import dev.objlog.format.segment.SegmentTrailer;
import dev.objlog.internal.LogRuntime;
import dev.objlog.internal.catalog.FencedSession;
import dev.objlog.internal.catalog.PartitionCatalog;
import dev.objlog.internal.catalog.SegmentListing;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import dev.objlog.store.memory.MemoryObjectStore;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A log over a memory or filesystem store on virtual time, with a stand-in writer that encodes
 * real segments, stores them create-only and publishes them through a fenced session, and a
 * stand-in reader that resolves LSNs through the catalog and decodes segments.
 */
public final class LogFixture implements AutoCloseable {
  public static final String STREAM = "tests/lifecycle";

  /** The stores the lifecycle scenarios run on. */
  public enum StoreKind {
    MEMORY,
    FILESYSTEM;

    public ObjectStore open(Path dir, MutableClock clock) {
      return this == MEMORY
          ? new MemoryObjectStore(clock)
          : FilesystemObjectStore.builder(dir.resolve("bucket")).clock(clock).build();
    }
  }

  public final MutableClock clock;
  public final ObjectStore store;
  public final Objlog log;
  private final AtomicLong uuids = new AtomicLong(1);

  public LogFixture(ObjectStore store, MutableClock clock, int leafLimit, int indexLimit) {
    this(store, clock, leafLimit, indexLimit, "lc");
  }

  public LogFixture(ObjectStore store, MutableClock clock, int leafLimit, int indexLimit,
      String prefix) {
    this.clock = clock;
    this.store = store;
    this.log = Objlog.open(store, STREAM, ObjlogOptions.builder()
        .prefix(prefix)
        .catalogLimits(leafLimit, indexLimit)
        .clock(clock)
        .sleeper(d -> {})
        .build());
  }

  public static LogFixture open(StoreKind kind, Path dir, int leafLimit, int indexLimit) {
    MutableClock clock = new MutableClock();
    return new LogFixture(kind.open(dir, clock), clock, leafLimit, indexLimit);
  }

  public LogRuntime runtime() {
    return ObjlogTestAccess.runtime(log);
  }

  public PartitionKeys keys(int partition) {
    return runtime().keys(partition);
  }

  public PartitionCatalog catalog(int partition) {
    return runtime().catalog(partition);
  }

  public Head head(int partition) {
    return catalog(partition).loadHead().orElseThrow().head();
  }

  public static Id128 writerId(int marker) {
    byte[] b = new byte[16];
    Arrays.fill(b, (byte) marker);
    b[0] = 0x7a;
    return Id128.of(b);
  }

  public FencedSession writer(int partition, int marker) {
    return catalog(partition).takeover(writerId(marker));
  }

  /** Encodes one segment of {@code values} at the session's next LSN, uploads it, publishes it. */
  public LeafEntry append(FencedSession session, String... values) {
    LeafEntry entry = upload(session, session.head().head().nextLsn(), values);
    session.publish(List.of(entry));
    return entry;
  }

  /** Encodes and uploads a segment without publishing it (an orphan unless published). */
  public LeafEntry upload(FencedSession session, long baseLsn, String... values) {
    int partition = session.catalog().identity().partition();
    byte[] uuid = ByteBuffer.allocate(16).putLong(0x5e65e65e65e6L).putLong(uuids.getAndIncrement()).array();
    long ts = clock.millis();
    SegmentEncoderOptions options = new SegmentEncoderOptions(Integer.toUnsignedLong(partition),
        Codec.NONE, HashAlgorithm.XXH64, 1, 1 << 20, ts, uuid, session.writerId().toBytes());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    SegmentTrailer trailer;
    try (SegmentEncoder encoder = new SegmentEncoder(options, out::write)) {
      long lsn = baseLsn;
      for (String value : values) {
        encoder.append(new SegmentRecord(lsn++, ts, value.getBytes(StandardCharsets.UTF_8)));
      }
      trailer = encoder.finish();
    }
    String key = keys(partition).segment(baseLsn, session.writerEpoch(), uuid);
    if (!store.putIfAbsent(key, out.toByteArray()).created()) {
      throw new IllegalStateException("segment key taken: " + key);
    }
    return new LeafEntry(trailer.baseLsn(), trailer.lastLsn(), trailer.minTimestampMs(),
        trailer.maxTimestampMs(), trailer.recordCount(), trailer.blockCount(), trailer.totalSize(),
        trailer.blockIndexOffset(), trailer.blockIndexLength(), trailer.codec().id(),
        trailer.hashAlgorithm().id(), trailer.segmentHash(), trailer.trailerHash(),
        session.writerEpoch(), Id128.of(uuid), session.writerId());
  }

  /** The object key of a published segment. */
  public String segmentKey(int partition, LeafEntry entry) {
    return keys(partition).segment(entry.baseLsn(), entry.writerEpoch(), entry.segmentUuid().toBytes());
  }

  /** Reads one segment's records directly, as a reader holding its catalog entry would. */
  public List<String> readSegment(int partition, LeafEntry entry) {
    String key = segmentKey(partition, entry);
    long size = store.head(key).orElseThrow(() -> new dev.objlog.store.ObjectNotFoundException(key)).size();
    SegmentReader reader = SegmentReader.open((RangeReader) (offset, length) ->
        store.getRange(key, offset, length), size, SegmentReaderOptions.defaults());
    List<String> out = new ArrayList<>();
    Iterator<SegmentRecord> it = reader.records();
    while (it.hasNext()) {
      out.add(new String(it.next().value(), StandardCharsets.UTF_8));
    }
    return out;
  }

  /**
   * Reads every record from {@code fromLsn} to the head's next LSN, through the catalog, as the
   * reader will: below the retention floor is {@link LsnExpiredException}.
   */
  public List<String> read(int partition, long fromLsn) {
    Head head = head(partition);
    if (Long.compareUnsigned(fromLsn, head.oldestLsn()) < 0) {
      throw new LsnExpiredException(fromLsn, head.oldestLsn(), head.nextLsn());
    }
    List<String> out = new ArrayList<>();
    long lsn = fromLsn;
    while (Long.compareUnsigned(lsn, head.nextLsn()) < 0) {
      SegmentListing listing = catalog(partition).listSegments(head, lsn, 1024);
      for (LeafEntry entry : listing.segments()) {
        List<String> records = readSegment(partition, entry);
        for (int i = (int) (Math.max(lsn, entry.baseLsn()) - entry.baseLsn()); i < records.size(); i++) {
          out.add(records.get(i));
        }
        lsn = entry.lastLsn() + 1;
      }
      if (listing.segments().isEmpty()) {
        break;
      }
    }
    return out;
  }

  @Override
  public void close() {
    log.close();
    store.close();
  }
}
