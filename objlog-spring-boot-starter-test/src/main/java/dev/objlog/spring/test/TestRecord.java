package dev.objlog.spring.test;

import dev.objlog.Header;
import dev.objlog.read.ReadRecord;
import dev.objlog.spring.core.ObjlogHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One record as {@link ObjlogTester} read it: where it is (stream name, partition, LSN), when it
 * was written, its headers and a copy of its value. Made for assertions: {@code
 * extracting(TestRecord::valueAsString)}, {@code extracting(TestRecord::key)}, and a {@link
 * #toString()} that shows the value, so a failing assertion says what the partition holds.
 *
 * <p>Thread-safety: immutable (the accessors of the value return copies).
 *
 * @param stream the configured stream name
 * @param partition the partition (u32)
 * @param lsn the record's LSN (u64)
 * @param timestamp the record's timestamp, to the millisecond
 * @param headers the record's headers, in order
 * @param value the record's value
 */
public record TestRecord(String stream, int partition, long lsn, Instant timestamp, List<Header> headers, byte[] value) {
  /** Values longer than this many characters are shortened in {@link #toString()}. */
  private static final int SHOWN_VALUE_CHARS = 120;

  public TestRecord {
    Objects.requireNonNull(stream, "stream");
    Objects.requireNonNull(timestamp, "timestamp");
    headers = List.copyOf(headers);
    value = value.clone();
  }

  static TestRecord of(String stream, ReadRecord record) {
    return new TestRecord(stream, record.partition(), record.lsn(), Instant.ofEpochMilli(record.timestampMs()),
        record.headers(), record.valueBytes());
  }

  /** A copy of the value. */
  @Override
  public byte[] value() {
    return value.clone();
  }

  /** The value decoded as UTF-8 (JSON values are their JSON text). */
  public String valueAsString() {
    return new String(value, StandardCharsets.UTF_8);
  }

  /** The key the template sent it with ({@link ObjlogHeaders#KEY}), or null when sent by partition. */
  public @Nullable String key() {
    return header(ObjlogHeaders.KEY);
  }

  /** The UTF-8 value of the last header named {@code name}, or null when there is none. */
  public @Nullable String header(String name) {
    String found = null;
    for (Header header : headers) {
      if (header.keyAsString().equals(name)) {
        found = header.valueAsString();
      }
    }
    return found;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TestRecord r && partition == r.partition && lsn == r.lsn && stream.equals(r.stream)
        && timestamp.equals(r.timestamp) && headers.equals(r.headers) && Arrays.equals(value, r.value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(stream, partition, lsn, timestamp, headers, Arrays.hashCode(value));
  }

  /** For example {@code orders/2@17 key=order-42 value="{"id":42}"}. */
  @Override
  public String toString() {
    String text = valueAsString();
    String shown = text.length() <= SHOWN_VALUE_CHARS
        ? text
        : text.substring(0, SHOWN_VALUE_CHARS) + "... (" + value.length + " bytes)";
    String key = key();
    return stream + "/" + Integer.toUnsignedString(partition) + "@" + Long.toUnsignedString(lsn)
        + (key == null ? "" : " key=" + key) + " value=\"" + shown + "\"";
  }
}
