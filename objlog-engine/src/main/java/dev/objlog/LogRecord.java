package dev.objlog;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A record to append: a timestamp in Unix milliseconds, headers and a value of at most 4 MiB.
 * Its LSN is assigned by the writer when the record is accepted.
 *
 * <p>Timestamps never decrease within a partition: the writer rejects a record older than the one
 * before it. Callers using wall-clock time pass {@code max(now, last)}.
 *
 * <p>Thread-safety: immutable; the value array is copied in and out.
 */
public final class LogRecord {
  /** Largest value the segment format allows, in bytes. */
  public static final int MAX_VALUE_BYTES = 4 * 1024 * 1024;

  /** Most headers one record may carry. */
  public static final int MAX_HEADERS = 64;

  /** Largest encoded headers area of one record, in bytes. */
  public static final int MAX_HEADER_BYTES = 256 * 1024;

  private final long timestampMs;
  private final List<Header> headers;
  private final byte[] value;

  private LogRecord(long timestampMs, List<Header> headers, byte[] value) {
    if (value.length > MAX_VALUE_BYTES) {
      throw new InvalidArgumentException(
          "a record value must be at most " + MAX_VALUE_BYTES + " bytes, was " + value.length);
    }
    if (headers.size() > MAX_HEADERS) {
      throw new InvalidArgumentException(
          "a record may carry at most " + MAX_HEADERS + " headers, had " + headers.size());
    }
    int headerBytes = headersAreaSize(headers);
    if (headerBytes > MAX_HEADER_BYTES) {
      throw new InvalidArgumentException(
          "a record's headers must encode to at most " + MAX_HEADER_BYTES + " bytes, were " + headerBytes);
    }
    this.timestampMs = timestampMs;
    this.headers = headers;
    this.value = value;
  }

  public static LogRecord of(long timestampMs, byte[] value) {
    return of(timestampMs, List.of(), value);
  }

  public static LogRecord of(long timestampMs, List<Header> headers, byte[] value) {
    return new LogRecord(
        timestampMs, List.copyOf(Objects.requireNonNull(headers, "headers")),
        Objects.requireNonNull(value, "value").clone());
  }

  /** A record whose value is UTF-8 text. */
  public static LogRecord of(long timestampMs, String value) {
    return new LogRecord(timestampMs, List.of(), value.getBytes(StandardCharsets.UTF_8));
  }

  public long timestampMs() {
    return timestampMs;
  }

  public List<Header> headers() {
    return headers;
  }

  public byte[] value() {
    return value.clone();
  }

  /** A read-only view of the value, for encoders that copy it once into their own buffers. */
  public java.nio.ByteBuffer valueBuffer() {
    return java.nio.ByteBuffer.wrap(value).asReadOnlyBuffer();
  }

  public int valueLength() {
    return value.length;
  }

  public String valueAsString() {
    return new String(value, StandardCharsets.UTF_8);
  }

  /** Bytes the record takes inside a raw block: 16-byte envelope, headers area, value. */
  public int encodedSize() {
    return 16 + headersAreaSize(headers) + value.length;
  }

  static int headersAreaSize(List<Header> headers) {
    if (headers.isEmpty()) {
      return 0;
    }
    int size = 2;
    for (Header h : headers) {
      size += h.encodedSize();
    }
    return size;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LogRecord r && r.timestampMs == timestampMs && r.headers.equals(headers)
        && Arrays.equals(r.value, value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(timestampMs, headers) * 31 + Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    return "LogRecord[ts=" + timestampMs + ", headers=" + headers.size() + ", value=" + value.length + " bytes]";
  }
}
