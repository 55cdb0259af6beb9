package dev.objlog;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * One record header: a non-empty binary key (at most 1024 bytes) and a binary value (at most
 * 65 535 bytes). Keys may repeat within a record; order is kept.
 *
 * <p>Thread-safety: immutable; the arrays are copied in and out.
 */
public final class Header {
  /** Longest key the segment format allows, in bytes. */
  public static final int MAX_KEY_BYTES = 1024;

  /** Longest value the segment format allows, in bytes. */
  public static final int MAX_VALUE_BYTES = 65_535;

  private final byte[] key;
  private final byte[] value;

  private Header(byte[] key, byte[] value) {
    if (key.length == 0 || key.length > MAX_KEY_BYTES) {
      throw new InvalidArgumentException(
          "a header key must be 1.." + MAX_KEY_BYTES + " bytes, was " + key.length);
    }
    if (value.length > MAX_VALUE_BYTES) {
      throw new InvalidArgumentException(
          "a header value must be at most " + MAX_VALUE_BYTES + " bytes, was " + value.length);
    }
    this.key = key;
    this.value = value;
  }

  public static Header of(byte[] key, byte[] value) {
    return new Header(Objects.requireNonNull(key, "key").clone(), Objects.requireNonNull(value, "value").clone());
  }

  /** A header whose key and value are UTF-8 text. */
  public static Header of(String key, String value) {
    return new Header(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
  }

  public byte[] key() {
    return key.clone();
  }

  public byte[] value() {
    return value.clone();
  }

  public String keyAsString() {
    return new String(key, StandardCharsets.UTF_8);
  }

  public String valueAsString() {
    return new String(value, StandardCharsets.UTF_8);
  }

  /** Bytes this header takes in a record's headers area (lengths included). */
  public int encodedSize() {
    return 4 + key.length + value.length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Header h && Arrays.equals(key, h.key) && Arrays.equals(value, h.value);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    return "Header[" + HexFormat.of().formatHex(key) + "=" + value.length + " bytes]";
  }
}
