package dev.objlog.read;

import dev.objlog.Header;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * One record as read from a partition.
 *
 * <p>The value is a <b>read-only {@link ByteBuffer}</b> over the bytes decoded from the segment,
 * shared (not copied) with the reader's block cache: {@link #value()} returns a fresh read-only
 * view each call (position 0, limit = length), so callers can consume it freely. Use {@link
 * #valueBytes()} for a private copy or {@link #valueAsString()} for UTF-8 text.
 *
 * <p>Thread-safety: immutable.
 *
 * @param partition the stream partition (u32)
 * @param lsn the record's LSN (u64)
 * @param timestampMs the record's timestamp, Unix milliseconds
 * @param headers the record's headers, in order
 * @param value the record's value (see above)
 */
public record ReadRecord(int partition, long lsn, long timestampMs, List<Header> headers, ByteBuffer value) {

  public ReadRecord {
    headers = List.copyOf(headers);
    value = Objects.requireNonNull(value, "value").slice().asReadOnlyBuffer();
  }

  /** A fresh read-only view of the value (position 0). */
  @Override
  public ByteBuffer value() {
    return value.duplicate();
  }

  /** Length of the value in bytes. */
  public int valueSize() {
    return value.remaining();
  }

  /** A copy of the value. */
  public byte[] valueBytes() {
    byte[] out = new byte[value.remaining()];
    value.duplicate().get(out);
    return out;
  }

  /** The value decoded as UTF-8. */
  public String valueAsString() {
    return new String(valueBytes(), StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return "ReadRecord[partition=" + Integer.toUnsignedString(partition) + ", lsn=" + Long.toUnsignedString(lsn)
        + ", timestampMs=" + timestampMs + ", headers=" + headers.size() + ", value=" + value.remaining()
        + " bytes]";
  }
}
