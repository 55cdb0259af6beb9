package dev.objlog.format.segment;

import static dev.objlog.format.segment.SegmentFormat.BLOCK_PREAMBLE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.RECORD_ENVELOPE_SIZE;

import dev.objlog.InvalidArgumentException;
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
 * Per block the cursor makes one range read, straight from the reader's bytes when its {@link
 * RangeReader#view} lends them, else through {@link RangeReader#readInto} into a reused buffer, and
 * decompresses through one reused zstd context into another reused buffer (each grown to the largest
 * block met: at most 64 B + 20 MiB and 16 MiB); context and buffers are its {@link DecodeContext}'s.
 * Advancing allocates nothing per record.
 *
 * <p><b>Lifetime of what it hands out:</b> see {@link RecordView}; buffers are valid while the
 * cursor stays in the block they came from, except from a {@link SegmentReader#blockCursor}, which
 * decodes into an array of its own that stays valid for good.
 *
 * <p><b>Errors:</b> as {@link SegmentReader}: {@link dev.objlog.CorruptObjectException} and its
 * subclasses for bad bytes, the {@link RangeReader}'s own exceptions unchanged. Any exception is
 * terminal: {@link #next} rethrows it from then on (retry with a new cursor). Accessors called with
 * no current record (before the first {@link #next}, after it returned false, after a failure or
 * {@link #close}) throw {@link InvalidArgumentException}.
 *
 * <p><b>Resources:</b> a cursor from {@link SegmentReader#cursor} owns its {@link DecodeContext}
 * (a native zstd context for compressed segments): {@link #close} releases it (idempotent), and so
 * does reaching the end or failing. A {@link SegmentReader#blockCursor} leaves the caller's context
 * open.
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
  private final DecodeContext context;
  /** Whether this cursor closes {@code context} when it ends. */
  private final boolean ownsContext;
  /** Whether each block's content is an array of its own, never reused (see blockCursor). */
  private final boolean detached;
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
  RecordCursor(SegmentReader segment, long from, int firstBlock, int endBlock, DecodeContext context,
      boolean ownsContext, boolean detached) {
    this.segment = segment;
    this.blocks = segment.blocks();
    this.codec = segment.trailer().codec();
    this.hash = segment.trailer().hashAlgorithm();
    this.from = from;
    this.nextBlock = firstBlock;
    this.endBlock = endBlock;
    this.context = context;
    this.ownsContext = ownsContext;
    this.detached = detached;
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
    // Codec none serves records from the fetched bytes, so a detached block must not land in the
    // reused fetch buffer.
    SegmentReader.BlockBytes fetched =
        segment.fetchBlockBytes(info, context, detached && codec == Codec.NONE);
    int stored = fetched.offset() + BLOCK_PREAMBLE_SIZE;
    BlockDecoder.checkStored(info, hash, fetched.array(), stored);
    int raw = (int) info.rawSize();
    byte[] b;
    int at;
    if (codec == Codec.NONE) {
      b = fetched.array();
      at = stored;
    } else {
      // raw_size <= 16 MiB, validated with the index
      b = detached ? new byte[raw] : context.scratch(raw);
      BlockDecoder.decompress(info, fetched.array(), stored, b, context.zstd());
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

  /**
   * Drops the current block, and closes the context if the cursor owns it; the cursor has no
   * current block afterwards.
   */
  private void releaseBuffers() {
    block = null;
    buf = EMPTY;
    content = null;
    remaining = 0;
    if (ownsContext) {
      context.close();
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

  /** Drops the current block and releases the context if the cursor owns it. Idempotent. */
  @Override
  public void close() {
    closed = true;
    positioned = false;
    releaseBuffers();
  }
}
