package dev.objlog.internal.read;

import dev.objlog.CorruptObjectException;
import dev.objlog.Header;
import dev.objlog.InvalidArgumentException;
import dev.objlog.MemoryPart;
import dev.objlog.format.HashAlgorithm;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.format.segment.Codec;
import dev.objlog.format.segment.DecodeContext;
import dev.objlog.format.segment.RangeReader;
import dev.objlog.format.segment.RecordCursor;
import dev.objlog.format.segment.RecordHeader;
import dev.objlog.format.segment.RecordView;
import dev.objlog.format.segment.SegmentFormat;
import dev.objlog.format.segment.SegmentReader;
import dev.objlog.format.segment.SegmentReaderOptions;
import dev.objlog.format.segment.SegmentRef;
import dev.objlog.internal.cache.ByteWeightedCache;
import dev.objlog.internal.memory.MemoryPool;
import dev.objlog.read.ReadRecord;
import dev.objlog.store.ObjectStore;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Opens committed segments and reads their blocks, with a reader-wide cache of opened segments
 * (validated trailer and block index) and one of decoded blocks.
 *
 * <p>A segment is always opened against the catalog's leaf entry: its key is derived from the
 * entry (base LSN, the entry's writer epoch, uuid), so the key's epoch is the entry's by
 * construction, and {@link SegmentReader#open} checks the trailer against every field of the
 * entry before any record is used. Opening a segment of at most {@link #WHOLE_OBJECT_BYTES} costs
 * one GET of the whole object, which then also serves its blocks (a point read or a tailer's fresh
 * segment pays one request, not three); a larger one costs two ranged GETs: the block index and
 * trailer together (they are adjacent at the end of the object, and the entry says where the index
 * starts), then the 64-byte file preamble.
 *
 * <p>Blocks are decoded in place ({@link SegmentReader#blockCursor}): one array per block holds
 * its decompressed content and every record's value is a view of it, so a value is never copied.
 * The native zstd contexts that decoding needs are pooled and bounded ({@link #MAX_CONTEXTS}, see
 * {@link ZstdContexts}) and freed by {@link #close}.
 *
 * <p>Both caches draw from the log's memory pool (parts {@code SEGMENT_INDEXES} and {@code
 * BLOCKS}); the reader options' sizes are their ceilings. {@link #close} returns their bytes.
 *
 * <p>Thread-safety: safe for concurrent use; cached values are immutable.
 */
final class SegmentAccess {
  /**
   * Segments up to this size are fetched whole when opened and kept with the opened segment. A
   * store request costs a round trip and a fee whatever its size; at this size the transfer is
   * small next to the two or three ranged requests (tail, preamble, block) it replaces.
   */
  static final long WHOLE_OBJECT_BYTES = 256 << 10;

  /**
   * Decode contexts kept for reuse: enough for the executor's read-ahead and a few reading
   * threads; beyond them a decode uses no kept native context (zstd makes one per block).
   */
  static final int MAX_CONTEXTS = 8;

  /** Bytes charged per cached record beyond its value and headers. */
  private static final int RECORD_OVERHEAD = 96;

  private final ObjectStore store;
  private final ByteWeightedCache<String, OpenSegment> segments;
  private final ByteWeightedCache<BlockKey, List<ReadRecord>> blocks;
  private final ZstdContexts contexts;

  SegmentAccess(ObjectStore store, long segmentCacheBytes, long blockCacheBytes, MemoryPool memory) {
    this.store = store;
    this.segments = ByteWeightedCache.create(segmentCacheBytes, OpenSegment::weight, memory,
        MemoryPart.SEGMENT_INDEXES);
    this.blocks = ByteWeightedCache.create(blockCacheBytes, SegmentAccess::weigh, memory, MemoryPart.BLOCKS);
    this.contexts = new ZstdContexts(MAX_CONTEXTS, memory);
  }

  /** An opened segment, the key it was read from, and the object bytes it keeps (0 or its size). */
  record OpenSegment(String key, int partition, SegmentReader reader, long heldBytes) {
    int weight() {
      long index = (long) SegmentFormat.INDEX_ENTRY_SIZE * reader.blocks().size();
      return (int) Math.min(Integer.MAX_VALUE, 512 + index + heldBytes);
    }

    int blockCount() {
      return reader.blocks().size();
    }
  }

  private record BlockKey(String segmentKey, int block) {}

  /**
   * The segment of {@code entry}, opened and validated against it (cached).
   *
   * @throws dev.objlog.store.ObjectNotFoundException if the object is missing
   * @throws CorruptObjectException if it is not the segment the entry describes
   */
  OpenSegment open(PartitionKeys keys, LeafEntry entry, ReaderMeters meters) {
    String key = keys.segment(entry.baseLsn(), entry.writerEpoch(), entry.segmentUuid().toBytes());
    return segments.get(key, k -> {
      SegmentRef expected = expectedRef(keys.partition(), entry);
      TailBufferedReader reader = new TailBufferedReader(store, k, entry);
      SegmentReader opened = SegmentReader.open(
          reader, entry.sizeBytes(), SegmentReaderOptions.defaults().withExpected(expected));
      long held = reader.keepOrDrop();
      meters.segmentOpens.increment();
      return new OpenSegment(k, keys.partition(), opened, held);
    });
  }

  /**
   * Block {@code index} of {@code segment} as records: from the block cache, else fetched,
   * verified and decoded (and cached when {@code cache} is set; replays pass false so a long
   * replay does not evict the blocks tailing readers reuse).
   */
  List<ReadRecord> block(OpenSegment segment, int index, boolean cache, ReaderMeters meters) {
    BlockKey key = new BlockKey(segment.key(), index);
    List<ReadRecord> hit = blocks.getIfPresent(key);
    if (hit != null) {
      return hit;
    }
    if (!cache) {
      return decode(segment, index, meters);
    }
    return blocks.get(key, k -> decode(segment, index, meters));
  }

  private List<ReadRecord> decode(OpenSegment segment, int index, ReaderMeters meters) {
    DecodeContext context = contexts.borrow();
    boolean failed = true;
    try (RecordCursor cursor = segment.reader().blockCursor(index, context)) {
      List<ReadRecord> out = new ArrayList<>((int) segment.reader().blocks().get(index).recordCount());
      while (cursor.next()) {
        out.add(toReadRecord(segment.partition(), cursor));
      }
      meters.blockReads.increment();
      failed = false;
      return Collections.unmodifiableList(out);
    } finally {
      // A context that saw a failure is not reused: it costs little to make a new one.
      contexts.giveBack(context, failed);
    }
  }

  /**
   * Frees the idle decode contexts (a decode still running, such as a replay's read-ahead, frees
   * its own when it ends) and returns both caches' bytes to the memory pool.
   */
  void close() {
    contexts.close();
    segments.close();
    blocks.close();
  }

  /** Decode contexts keeping a native zstd context now (for tests). */
  int openContexts() {
    return contexts.open();
  }

  /** A record read in place: its value is a read-only view of the block's own array. */
  private static ReadRecord toReadRecord(int partition, RecordView r) {
    List<Header> headers = r.headerCount() == 0 ? List.of() : toHeaders(r.lsn(), r.headers());
    // A slice of the block's (read-only) content: ReadRecord slices it once more, and that is all.
    ByteBuffer value = r.blockContent().slice(r.valueOffset(), r.valueLength());
    return new ReadRecord(partition, r.lsn(), r.timestampMs(), headers, value);
  }

  private static List<Header> toHeaders(long lsn, List<RecordHeader> raw) {
    List<Header> headers = new ArrayList<>(raw.size());
    for (RecordHeader h : raw) {
      try {
        headers.add(Header.of(h.key(), h.value()));
      } catch (InvalidArgumentException e) {
        throw new CorruptObjectException("segment record " + Long.toUnsignedString(lsn)
            + " has an invalid header: " + e.getMessage(), e);
      }
    }
    return headers;
  }

  private static int weigh(List<ReadRecord> records) {
    long total = 64;
    for (ReadRecord r : records) {
      total += RECORD_OVERHEAD + r.valueSize();
      for (Header h : r.headers()) {
        total += 32 + h.encodedSize();
      }
    }
    return (int) Math.min(Integer.MAX_VALUE, total);
  }

  /** Decoded blocks currently cached (for tests and diagnostics). */
  long cachedBlocks() {
    return blocks.size();
  }

  /** The reference the segment's trailer must match: every field of the leaf entry. */
  static SegmentRef expectedRef(int partition, LeafEntry e) {
    // Unknown ids raise UnsupportedVersionException (a CorruptObjectException).
    Codec codec = Codec.fromId(e.codec());
    HashAlgorithm hash = HashAlgorithm.fromId(e.hashAlgorithm());
    return new SegmentRef(Integer.toUnsignedLong(partition), e.segmentUuid().toBytes(),
        e.writerTag().toBytes(), e.baseLsn(), e.lastLsn(), e.minTimestampMs(), e.maxTimestampMs(),
        e.recordCount(), e.blockCount(), e.sizeBytes(), e.blockIndexOffset(), e.blockIndexLength(),
        codec, hash, e.segmentHash(), e.trailerHash());
  }

  /**
   * Ranged reads of one segment object; the first read at or after the block index fetches the
   * whole tail ({@code [blockIndexOffset, size)}: index and trailer) in one request and serves the
   * opening reads from it. For a segment of at most {@link #WHOLE_OBJECT_BYTES} the "tail" is the
   * whole object: it serves the preamble too, and later the blocks.
   */
  private static final class TailBufferedReader implements RangeReader {
    private final ObjectStore store;
    private final String key;
    private final long tailStart;
    private final long size;
    private volatile byte @Nullable [] tail;
    private volatile boolean tailUsed;

    TailBufferedReader(ObjectStore store, String key, LeafEntry entry) {
      this.store = store;
      this.key = key;
      this.size = entry.sizeBytes();
      long start = entry.blockIndexOffset();
      boolean plausible = Long.compareUnsigned(start, size) < 0 && size - start <= (64L << 20) + 4096;
      this.tailStart = Long.compareUnsigned(size, WHOLE_OBJECT_BYTES) <= 0 ? 0 : plausible ? start : Long.MAX_VALUE;
    }

    @Override
    public byte[] read(long offset, int length) {
      if (!tailUsed && offset >= tailStart && offset + (long) length <= size) {
        byte[] t = tail;
        if (t == null) {
          t = store.getRange(key, tailStart, (int) (size - tailStart));
          if (t.length != size - tailStart) {
            // Shorter than the catalog says: let the segment reader see the truth and fail.
            tailUsed = true;
            return store.getRange(key, offset, length);
          }
          tail = t;
        }
        int from = (int) (offset - tailStart);
        byte[] out = new byte[length];
        System.arraycopy(t, from, out, 0, length);
        return out;
      }
      return store.getRange(key, offset, length);
    }

    /** Lends the array the store just returned (or a copy of the tail): blocks are not copied again. */
    @Override
    public ByteBuffer view(long offset, int length) {
      return ByteBuffer.wrap(read(offset, length));
    }

    /**
     * After opening: a whole small object stays to serve the blocks (returns its size, to weigh
     * the cache entry); otherwise later reads go to the store and the tail buffer is released.
     */
    long keepOrDrop() {
      byte[] t = tail;
      if (!tailUsed && tailStart == 0 && t != null) {
        return t.length;
      }
      tailUsed = true;
      tail = null;
      return 0;
    }
  }
}
