package dev.objlog.format.segment;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * One record read in place from a decoded block: its LSN, timestamp, headers and value as positions
 * in the block's raw content, with nothing copied. Every rule of FORMAT.md §1.7 (and the block's
 * hash, decompression and preamble checks) has passed for the <em>whole</em> block before its first
 * record is visible, so the accessors never fail on the bytes.
 *
 * <p><b>Lifetime:</b> a view belongs to the {@link RecordCursor} that produced it and describes the
 * cursor's current record; it changes when the cursor advances. The buffers it returns are
 * read-only and stay valid while the cursor remains in the same block; after it moves to another
 * block (or is closed) their contents are undefined, because the cursor reuses its decompression
 * buffer. Copy out ({@link #valueBytes}, {@link #headers}, {@link #toRecord}) what must outlive that.
 *
 * <p><b>Allocation:</b> {@link #lsn}, {@link #timestampMs}, {@link #headerCount}, {@link
 * #valueLength}, {@link #valueOffset} and {@link #blockContent} (one buffer per block) allocate
 * nothing, so a replay loop over them creates no objects per record. {@link #value}, {@link
 * #headerKey} and {@link #headerValue} allocate one small read-only buffer per call (no copy); the
 * copying accessors allocate what they return.
 *
 * <p>Thread-safety: none; confined to the cursor's thread.
 */
public interface RecordView {
  /** The record's LSN, an unsigned 64-bit value. */
  long lsn();

  /** The record's timestamp in Unix milliseconds. */
  long timestampMs();

  /** The number of headers, 0..64. */
  int headerCount();

  /**
   * The key of header {@code index} as a read-only buffer over the block (position 0, limit the key
   * length).
   *
   * @throws dev.objlog.InvalidArgumentException if {@code index} is not in {@code 0..headerCount()-1}
   */
  ByteBuffer headerKey(int index);

  /**
   * The value of header {@code index} as a read-only buffer over the block, possibly empty.
   *
   * @throws dev.objlog.InvalidArgumentException if {@code index} is not in {@code 0..headerCount()-1}
   */
  ByteBuffer headerValue(int index);

  /** Copies of all headers, in order; an immutable list. */
  List<RecordHeader> headers();

  /** The value's length in bytes, 0..4 MiB. */
  int valueLength();

  /**
   * The value as a read-only buffer over the block: position 0, limit {@link #valueLength}. A new
   * buffer object per call; the bytes are not copied.
   */
  ByteBuffer value();

  /** A copy of the value. */
  byte[] valueBytes();

  /**
   * The block's whole raw content (every record's envelope, headers and value) as a read-only
   * buffer whose index 0 is the block's first byte; the same buffer object for every record of a
   * block. Use its absolute getters with {@link #valueOffset} and {@link #valueLength} to read
   * values without allocating. Its position and limit are the caller's: the cursor never reads them
   * and never resets them, and every call for the same block returns the same object.
   */
  ByteBuffer blockContent();

  /** Where the value starts in {@link #blockContent}. */
  int valueOffset();

  /** A self-contained copy of the record (value and headers copied). */
  SegmentRecord toRecord();
}
