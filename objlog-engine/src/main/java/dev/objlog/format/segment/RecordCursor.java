package dev.objlog.format.segment;

import static dev.objlog.format.segment.SegmentFormat.BLOCK_PREAMBLE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.MAX_STORED_BLOCK_SIZE;
import static dev.objlog.format.segment.SegmentFormat.RECORD_ENVELOPE_SIZE;

import com.github.luben.zstd.ZstdDecompressCtx;
import dev.objlog.InvalidArgumentException;
import dev.objlog.ObjlogException;
import dev.objlog.format.HashAlgorithm;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Zero-copy replay of a segment's records: {@link #next} moves to the next record, and the cursor
 * itself is the {@link RecordView} of that record, read in place from the decoded block. Obtain one
 * from {@link SegmentReader#cursor(long)}.
 *
 * <p>Blocks are fetched one at a time as the cursor reaches them and are checked completely (preamble
 * equals index entry, block_hash before decompression, decompressed length, every record rule of
 * §1.7) before the first of their records becomes current: a corrupt block yields no record at all.
 * Per block the cursor makes one range read ({@link RangeReader#readInto}) into a buffer reused for
 * the cursor's life, and decompresses through one reused zstd context into another reused buffer
 * (each grown to the largest block met: at most 64 B + 20 MiB and 16 MiB). Advancing allocates
 * nothing per record.
 *
 * <p><b>Lifetime of what it hands out:</b> see {@link RecordView}; buffers are valid while the
 * cursor stays in the block they came from.
 *
 * <p><b>Errors:</b> as {@link SegmentReader}: {@link dev.objlog.CorruptObjectException} and its
 * subclasses for bad bytes, the {@link RangeReader}'s own exceptions unchanged. Any exception is
 * terminal: {@link #next} rethrows it from then on (retry with a new cursor). Accessors called with
 * no current record (before the first {@link #next}, after it returned false, after a failure or
 * {@link #close}) throw {@link InvalidArgumentException}.
 *
 * <p><b>Resources:</b> holds a native zstd context for compressed segments; {@link #close} releases
 * it (idempotent), and so does reaching the end.
 *
 * <p>Thread-safety: not thread-safe; one thread at a time.
 */
public final class RecordCursor implements RecordView, AutoCloseable {
  private static final byte[] EMPTY = new byte[0];

  private final SegmentReader segment;
  private final List<BlockInfo> blocks;
  private final Codec codec;
  private final HashAlgorithm hash;
  private final long from;
  private final int endBlock;
  /** Whether to keep one native context for all blocks (else zstd makes one per block). */
  private final boolean reuseContext;
  private @Nullable ZstdDecompressCtx zstd;
  /** Range-read buffer: block preamble and stored bytes, reused; at most 64 B + 20 MiB. */
  private byte[] fetched = EMPTY;
  /** Decompression buffer, reused; at most 16 MiB. */
  private byte[] scratch = EMPTY;
  private int nextBlock;

  // The current block: raw content buf[base, base + rawLen).
  private @Nullable BlockInfo block;
  private byte[] buf = EMPTY;
  private int base;
  private int rawLen;
  private @Nullable ByteBuffer content;
  private int pos;
  private int remaining;

  // The current record.
  private boolean positioned;
  private long lsn;
  private long ts;
  private int headersAt;
  private int headersLen;
  private int valueAt;
  private int valueLen;

  private @Nullable RuntimeException failure;
  private boolean closed;

  /** Records from {@code from} in blocks {@code [firstBlock, endBlock)} of {@code segment}. */
  RecordCursor(SegmentReader segment, long from, int firstBlock, int endBlock, boolean reuseContext) {
    this.segment = segment;
    this.blocks = segment.blocks();
    this.codec = segment.trailer().codec();
    this.hash = segment.trailer().hashAlgorithm();
    this.from = from;
    this.nextBlock = firstBlock;
    this.endBlock = endBlock;
    this.reuseContext = reuseContext;
  }

  /**
   * Moves to the next record at or after the cursor's start LSN, fetching and checking the next
   * block when the current one is used up.
   *
   * @return false once the segment (or the requested range of it) is exhausted
   * @throws dev.objlog.CorruptObjectException if the next block breaks a rule
   * @throws InvalidArgumentException if the cursor is closed
   */
  public boolean next() {
    if (closed) {
      throw new InvalidArgumentException("record cursor is closed");
    }
    RuntimeException failed = failure;
    if (failed != null) {
      throw failed;
    }
    try {
      while (true) {
        while (remaining > 0) {
          remaining--;
          int p = pos;
          lsn++;
          ts = Bytes.u64(buf, p);
          headersLen = Bytes.i32(buf, p + 8);
          valueLen = Bytes.i32(buf, p + 12);
          headersAt = p + RECORD_ENVELOPE_SIZE;
          valueAt = headersAt + headersLen;
          pos = valueAt + valueLen;
          if (Long.compareUnsigned(lsn, from) >= 0) {
            positioned = true;
            return true;
          }
        }
        positioned = false;
        if (nextBlock >= endBlock) {
          releaseBuffers();
          return false;
        }
        load(nextBlock++);
      }
    } catch (RuntimeException e) {
      failure = e;
      positioned = false;
      releaseBuffers();
      throw e;
    }
  }

  /** Fetches and checks block {@code index} completely, then makes it current. */
  private void load(int index) {
    BlockInfo info = blocks.get(index);
    int fetchLength = BLOCK_PREAMBLE_SIZE + (int) info.storedSize(); // <= 64 B + 20 MiB, validated
    if (fetched.length < fetchLength) {
      // Stored sizes of neighbouring blocks differ by a few bytes up or down: an eighth of headroom
      // spares regrowing (and zeroing) the buffer for most of them. Still capped by the format.
      fetched = new byte[(int) Math.min(fetchLength + (fetchLength >> 3),
          (long) BLOCK_PREAMBLE_SIZE + MAX_STORED_BLOCK_SIZE)];
    }
    segment.fetchBlockInto(info, fetched);
    BlockDecoder.checkStored(info, hash, fetched, BLOCK_PREAMBLE_SIZE);
    int raw = (int) info.rawSize();
    byte[] b;
    int at;
    if (codec == Codec.NONE) {
      b = fetched;
      at = BLOCK_PREAMBLE_SIZE;
    } else {
      if (scratch.length < raw) {
        scratch = new byte[raw]; // raw_size <= 16 MiB, validated with the index
      }
      BlockDecoder.decompress(info, fetched, BLOCK_PREAMBLE_SIZE, scratch, context());
      b = scratch;
      at = 0;
    }
    BlockDecoder.validateRecords(info, b, at, raw);
    block = info;
    buf = b;
    base = at;
    rawLen = raw;
    content = null;
    pos = at;
    remaining = (int) info.recordCount();
    lsn = info.baseLsn() - 1; // two's complement: base 0 gives -1, and the first lsn++ gives 0
  }

  private @Nullable ZstdDecompressCtx context() {
    if (!reuseContext) {
      return null;
    }
    ZstdDecompressCtx ctx = zstd;
    if (ctx == null) {
      try {
        ctx = new ZstdDecompressCtx();
      } catch (RuntimeException e) {
        throw new ObjlogException("zstd: cannot create a decompression context: " + e.getMessage(), e);
      }
      zstd = ctx;
    }
    return ctx;
  }

  /** Drops the buffers and the native context; the cursor has no current block afterwards. */
  private void releaseBuffers() {
    block = null;
    buf = EMPTY;
    fetched = EMPTY;
    scratch = EMPTY;
    content = null;
    remaining = 0;
    ZstdDecompressCtx ctx = zstd;
    if (ctx != null) {
      zstd = null;
      ctx.close();
    }
  }

  /**
   * The block the current record belongs to.
   *
   * @throws InvalidArgumentException if there is no current record
   */
  public BlockInfo block() {
    requirePositioned();
    return java.util.Objects.requireNonNull(block);
  }

  private void requirePositioned() {
    if (!positioned) {
      throw new InvalidArgumentException(closed ? "record cursor is closed" : "record cursor has no current record");
    }
  }

  @Override
  public long lsn() {
    requirePositioned();
    return lsn;
  }

  @Override
  public long timestampMs() {
    requirePositioned();
    return ts;
  }

  @Override
  public int headerCount() {
    requirePositioned();
    return headersLen == 0 ? 0 : Bytes.u16(buf, headersAt);
  }

  /** Offset in {@code buf} of header {@code index}'s 4-byte lengths (the area is validated). */
  private int headerAt(int index) {
    int count = headerCount();
    if (index < 0 || index >= count) {
      throw new InvalidArgumentException("header " + index + " outside 0.." + (count - 1));
    }
    int p = headersAt + 2;
    for (int i = 0; i < index; i++) {
      p += 4 + Bytes.u16(buf, p) + Bytes.u16(buf, p + 2);
    }
    return p;
  }

  @Override
  public ByteBuffer headerKey(int index) {
    int p = headerAt(index);
    return slice(p + 4, Bytes.u16(buf, p));
  }

  @Override
  public ByteBuffer headerValue(int index) {
    int p = headerAt(index);
    return slice(p + 4 + Bytes.u16(buf, p), Bytes.u16(buf, p + 2));
  }

  @Override
  public List<RecordHeader> headers() {
    requirePositioned();
    return headersLen == 0 ? List.of() : BlockDecoder.readHeaders(buf, headersAt);
  }

  @Override
  public int valueLength() {
    requirePositioned();
    return valueLen;
  }

  @Override
  public ByteBuffer value() {
    requirePositioned();
    return slice(valueAt, valueLen);
  }

  private ByteBuffer slice(int at, int len) {
    return ByteBuffer.wrap(buf, at, len).slice().asReadOnlyBuffer();
  }

  @Override
  public byte[] valueBytes() {
    requirePositioned();
    return Arrays.copyOfRange(buf, valueAt, valueAt + valueLen);
  }

  @Override
  public ByteBuffer blockContent() {
    requirePositioned();
    ByteBuffer c = content;
    if (c == null) {
      c = ByteBuffer.wrap(buf, base, rawLen).slice().asReadOnlyBuffer();
      content = c;
    }
    return c;
  }

  @Override
  public int valueOffset() {
    requirePositioned();
    return valueAt - base;
  }

  @Override
  public SegmentRecord toRecord() {
    requirePositioned();
    List<RecordHeader> headers = headersLen == 0 ? List.of() : BlockDecoder.readHeaders(buf, headersAt);
    return new SegmentRecord(lsn, ts, headers, Arrays.copyOfRange(buf, valueAt, valueAt + valueLen));
  }

  /** Releases the decompression buffer and the native zstd context. Idempotent. */
  @Override
  public void close() {
    closed = true;
    positioned = false;
    releaseBuffers();
  }
}
