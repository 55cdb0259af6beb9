package dev.objlog.format.segment;

import static dev.objlog.format.segment.SegmentFormat.BLOCK_PREAMBLE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.MAX_BLOCK_COUNT;
import static dev.objlog.format.segment.SegmentFormat.MAX_HEADER_KEY_LEN;
import static dev.objlog.format.segment.SegmentFormat.MAX_HEADER_VALUE_LEN;
import static dev.objlog.format.segment.SegmentFormat.MAX_RAW_BLOCK_SIZE;
import static dev.objlog.format.segment.SegmentFormat.MAX_RECORD_COUNT;
import static dev.objlog.format.segment.SegmentFormat.MAX_RECORD_HEADERS;
import static dev.objlog.format.segment.SegmentFormat.MAX_RECORD_HEADER_BYTES;
import static dev.objlog.format.segment.SegmentFormat.MAX_RECORD_LSN;
import static dev.objlog.format.segment.SegmentFormat.MAX_RECORD_VALUE_LEN;
import static dev.objlog.format.segment.SegmentFormat.RECORD_ENVELOPE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.RESERVED_LSN;

import dev.objlog.InvalidArgumentException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The record half of a segment encoder: validates records against the segment rules (FORMAT.md
 * §1.2, §1.10: contiguous LSNs, non-decreasing timestamps, limits), frames each one into the open
 * block's raw buffer, and closes blocks by the Go writer's sealing rule: a record joins the open
 * block unless the block is non-empty and the record would take it past the target block size (or
 * past 16 MiB). A closed block comes out as a {@link RawBlock} for a {@link BlockSealer}; the
 * blocks, sealed and handed to a {@link SegmentAssembler} in order, give exactly the bytes a
 * {@link SegmentEncoder} writes.
 *
 * <p>Input errors ({@link InvalidArgumentException}) are detected before any state changes, so the
 * builder stays usable after rejecting a record. The open block's buffer is handed over with the
 * block; {@link #recycle} offers a finished whole-block buffer back so a sequential caller
 * allocates nothing per block.
 *
 * <p>Memory follows the data: a block without a recycled buffer starts with room for {@value
 * #INITIAL_BLOCK_BYTES} bytes of records (or the first record) and doubles as records arrive, up
 * to the target block size (a single larger record gets exactly its size), so a block holding a
 * few records never holds a whole block of heap. The buffer's size never changes the bytes.
 *
 * <p>Thread-safety: not thread-safe; one thread at a time (the blocks it returns may go anywhere).
 */
public final class RawBlockBuilder {
  /** Room for records a new block's buffer starts with (unless the target is smaller). */
  public static final int INITIAL_BLOCK_BYTES = 16 * 1024;

  private final int target;
  private final int initialCapacity;
  private final int fullCapacity;

  private byte @Nullable [] raw;
  private byte @Nullable [] spare;
  private int rawLen;
  private int blockRecords;
  private long blockBaseLsn;
  private long blockMinTs;
  private long blocksClosed;
  private long recordCount;
  private long baseLsn;
  private long lastLsn;
  private long minTs;
  private long lastTs;

  /**
   * @param targetBlockSize raw bytes per block before it closes, 1..16 MiB
   * @throws InvalidArgumentException if the target is out of range
   */
  public RawBlockBuilder(int targetBlockSize) {
    if (targetBlockSize < 1 || targetBlockSize > MAX_RAW_BLOCK_SIZE) {
      throw new InvalidArgumentException("target block size " + targetBlockSize + " outside 1.."
          + MAX_RAW_BLOCK_SIZE);
    }
    this.target = targetBlockSize;
    this.initialCapacity = BLOCK_PREAMBLE_SIZE + Math.min(targetBlockSize, INITIAL_BLOCK_BYTES);
    this.fullCapacity = fullBufferLength(targetBlockSize);
  }

  /**
   * The length of a buffer that holds a whole block of {@code targetBlockSize} raw bytes with its
   * preamble reserve: the size a block's buffer grows to, and the least {@link #recycle} keeps.
   */
  public static int fullBufferLength(int targetBlockSize) {
    return BLOCK_PREAMBLE_SIZE + targetBlockSize;
  }

  /**
   * Whether appending a record of {@code encodedSize} bytes (see {@link #encodedSize}) would close
   * the open block first (the sealing rule of the class comment): a caller with a spare buffer
   * {@linkplain #recycle offers} it now, for the block that record opens.
   */
  public boolean closesBlock(long encodedSize) {
    return blockRecords > 0 && (rawLen + encodedSize > target || rawLen + encodedSize > MAX_RAW_BLOCK_SIZE);
  }

  /**
   * The bytes one record occupies in a block's raw content: {@code 16 + headers_len + value_len}.
   * Does not validate the record.
   */
  public static long encodedSize(SegmentRecord record) {
    return RECORD_ENVELOPE_SIZE + headersLength(record.headers()) + record.value().length;
  }

  /**
   * Adds a record: the first fixes the segment's base LSN; each next one must carry the following
   * LSN and a timestamp no earlier than the previous one.
   *
   * @return the block this record closed (the one open before it), or null if it joined the open
   *     block
   * @throws InvalidArgumentException if the record breaks a rule; nothing changes then
   */
  public @Nullable RawBlock append(SegmentRecord record) {
    return append(record.lsn(), record.timestampMs(), record.headers(), record.value(), null);
  }

  /**
   * {@link #append(SegmentRecord)} for a value held in a buffer: its remaining bytes are copied
   * once, straight into the block (the buffer's position does not move). For callers whose records
   * keep their values private (a read-only view costs no copy; a {@link SegmentRecord} would).
   * The headers are not copied either: they must not change during the call.
   */
  public @Nullable RawBlock append(long lsn, long timestampMs, List<RecordHeader> headers, ByteBuffer value) {
    return append(lsn, timestampMs, headers, null, value);
  }

  private @Nullable RawBlock append(long lsn, long timestampMs, List<RecordHeader> headers,
      byte @Nullable [] value, @Nullable ByteBuffer valueBuffer) {
    int valueLen = value != null ? value.length : Objects.requireNonNull(valueBuffer, "value").remaining();
    int size = validate(lsn, timestampMs, headers, valueLen);
    boolean close = closesBlock(size);
    if (close && blocksClosed + 2 > MAX_BLOCK_COUNT) {
      throw new InvalidArgumentException("segment would exceed " + MAX_BLOCK_COUNT + " blocks");
    }
    RawBlock closed = close ? takeOpenBlock() : null;
    if (recordCount == 0) {
      baseLsn = lsn;
      minTs = timestampMs;
    }
    if (blockRecords == 0) {
      blockBaseLsn = lsn;
      blockMinTs = timestampMs;
    }
    writeRecord(timestampMs, headers, value, valueBuffer, valueLen, size);
    blockRecords++;
    recordCount++;
    lastLsn = lsn;
    lastTs = timestampMs;
    return closed;
  }

  /**
   * Closes the open block now (at the end of a segment) and returns it; null if it holds no record.
   * Records appended afterwards start a new block of the same segment.
   */
  public @Nullable RawBlock takeOpenBlock() {
    if (blockRecords == 0) {
      return null;
    }
    RawBlock block = new RawBlock(Objects.requireNonNull(raw, "raw"), rawLen, blockRecords, blocksClosed, blockBaseLsn, blockMinTs,
        lastTs);
    blocksClosed++;
    raw = null;
    rawLen = 0;
    blockRecords = 0;
    return block;
  }

  /**
   * Offers a buffer back once its block is sealed and its bytes consumed; the next block may reuse
   * it. Kept only if it holds a whole block ({@link #fullBufferLength}) and none is kept yet. The
   * caller must not touch it afterwards.
   */
  public void recycle(byte[] buffer) {
    if (spare == null && buffer.length >= fullCapacity && buffer != raw) {
      spare = buffer;
    }
  }

  /**
   * Takes back the buffer offered with {@link #recycle} and not used yet, or null: for a caller
   * that is done appending and would rather keep the buffer elsewhere than with this builder.
   */
  public byte @Nullable [] takeSpare() {
    byte[] b = spare;
    spare = null;
    return b;
  }

  /** Checks every encoder input rule; returns the encoded size. */
  private int validate(long lsn, long timestampMs, List<RecordHeader> headers, int valueLen) {
    if (recordCount == 0) {
      if (lsn == RESERVED_LSN) {
        throw new InvalidArgumentException("LSN 2^64-1 is reserved and never assigned to a record");
      }
    } else {
      if (lastLsn == MAX_RECORD_LSN) {
        throw new InvalidArgumentException("LSN space exhausted: the previous record had LSN 2^64-2");
      }
      if (lsn != lastLsn + 1) {
        throw new InvalidArgumentException("non-contiguous LSN " + Long.toUnsignedString(lsn)
            + " after " + Long.toUnsignedString(lastLsn));
      }
      if (timestampMs < lastTs) {
        throw new InvalidArgumentException("timestamp " + timestampMs + " of LSN "
            + Long.toUnsignedString(lsn) + " precedes the previous record's " + lastTs);
      }
    }
    if (recordCount >= MAX_RECORD_COUNT) {
      throw new InvalidArgumentException("segment already holds " + MAX_RECORD_COUNT + " records");
    }
    if (headers.size() > MAX_RECORD_HEADERS) {
      throw new InvalidArgumentException(headers.size() + " headers exceed " + MAX_RECORD_HEADERS);
    }
    for (RecordHeader h : headers) {
      if (h.key().length == 0) {
        throw new InvalidArgumentException("header key must not be empty");
      }
      if (h.key().length > MAX_HEADER_KEY_LEN) {
        throw new InvalidArgumentException("header key of " + h.key().length + " bytes exceeds "
            + MAX_HEADER_KEY_LEN);
      }
      if (h.value().length > MAX_HEADER_VALUE_LEN) {
        throw new InvalidArgumentException("header value of " + h.value().length + " bytes exceeds "
            + MAX_HEADER_VALUE_LEN);
      }
    }
    long headersLen = headersLength(headers);
    if (headersLen > MAX_RECORD_HEADER_BYTES) {
      throw new InvalidArgumentException("encoded headers of " + headersLen + " bytes exceed "
          + MAX_RECORD_HEADER_BYTES);
    }
    if (valueLen > MAX_RECORD_VALUE_LEN) {
      throw new InvalidArgumentException("value of " + valueLen + " bytes exceeds " + MAX_RECORD_VALUE_LEN);
    }
    return (int) (RECORD_ENVELOPE_SIZE + headersLen + valueLen);
  }

  static long headersLength(List<RecordHeader> headers) {
    if (headers.isEmpty()) {
      return 0;
    }
    long len = 2;
    for (RecordHeader h : headers) {
      len += 4L + h.key().length + h.value().length;
    }
    return len;
  }

  private void writeRecord(long timestampMs, List<RecordHeader> headers, byte @Nullable [] value,
      @Nullable ByteBuffer valueBuffer, int valueLen, int size) {
    int need = BLOCK_PREAMBLE_SIZE + rawLen + size;
    byte[] b = raw;
    if (b == null) {
      b = spare != null ? spare : new byte[Math.max(need, initialCapacity)];
      spare = null;
    }
    if (need > b.length) {
      // Doubling keeps the copies to about one block's bytes; the target caps it, since a block
      // closes there (only its first record may pass it, and that gets its own size).
      int grown = (int) Math.min(fullCapacity, 2L * b.length);
      b = Arrays.copyOf(b, Math.max(need, grown));
    }
    raw = b;
    int p = BLOCK_PREAMBLE_SIZE + rawLen;
    int headersLen = (int) headersLength(headers);
    Bytes.put64(b, p, timestampMs);
    Bytes.put32(b, p + 8, headersLen);
    Bytes.put32(b, p + 12, valueLen);
    p += RECORD_ENVELOPE_SIZE;
    if (headersLen > 0) {
      Bytes.put16(b, p, headers.size());
      p += 2;
      for (RecordHeader h : headers) {
        byte[] k = h.key();
        byte[] v = h.value();
        Bytes.put16(b, p, k.length);
        Bytes.put16(b, p + 2, v.length);
        p += 4;
        System.arraycopy(k, 0, b, p, k.length);
        p += k.length;
        System.arraycopy(v, 0, b, p, v.length);
        p += v.length;
      }
    }
    if (value != null) {
      System.arraycopy(value, 0, b, p, valueLen);
    } else {
      Objects.requireNonNull(valueBuffer, "value").get(valueBuffer.position(), b, p, valueLen);
    }
    rawLen += size;
  }

  /** Records appended so far. */
  public long recordCount() {
    return recordCount;
  }

  /** Blocks closed so far (returned by {@link #append} or {@link #takeOpenBlock}). */
  public long blocksClosed() {
    return blocksClosed;
  }

  /** Raw bytes in the open block. */
  public int openBlockBytes() {
    return rawLen;
  }

  /** Records in the open block. */
  public int openBlockRecords() {
    return blockRecords;
  }

  /** LSN of the first record; meaningful once a record was appended. */
  public long baseLsn() {
    return baseLsn;
  }

  /** LSN of the latest record; meaningful once a record was appended. */
  public long lastLsn() {
    return lastLsn;
  }

  /** Timestamp of the first record; meaningful once a record was appended. */
  public long minTimestampMs() {
    return minTs;
  }

  /** Timestamp of the latest record; meaningful once a record was appended. */
  public long maxTimestampMs() {
    return lastTs;
  }
}
