package dev.objlog.format.segment;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One log record as stored in a segment: its LSN (an unsigned 64-bit value; implicit on the wire),
 * timestamp in Unix milliseconds, headers in order, and value.
 *
 * <p>The value array is held as given, not copied (the encoder's hot path); treat it as immutable
 * once handed over. The header list is copied into an unmodifiable list. Equality compares contents.
 *
 * <p>Thread-safety: immutable if its arrays are not mutated; then safe to share.
 */
public record SegmentRecord(long lsn, long timestampMs, List<RecordHeader> headers, byte[] value) {
  public SegmentRecord {
    headers = List.copyOf(headers);
    Objects.requireNonNull(value, "value");
  }

  /** A record without headers. */
  public SegmentRecord(long lsn, long timestampMs, byte[] value) {
    this(lsn, timestampMs, List.of(), value);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SegmentRecord other
        && lsn == other.lsn
        && timestampMs == other.timestampMs
        && headers.equals(other.headers)
        && Arrays.equals(value, other.value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(lsn, timestampMs, headers, Arrays.hashCode(value));
  }

  @Override
  public String toString() {
    return "SegmentRecord[lsn=" + Long.toUnsignedString(lsn) + ", timestampMs=" + timestampMs
        + ", headers=" + headers + ", value.length=" + value.length + "]";
  }
}
