package dev.objlog.format.catalog;

import dev.objlog.InvalidArgumentException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * A 16-byte identifier as stored in catalog objects: page ids, segment uuids, writer ids and
 * writer tags. The all-zero value means "absent" wherever the format allows absence.
 *
 * <p>Thread-safety: immutable; the bytes are copied in and out.
 */
public final class Id128 {
  /** Number of bytes in the identifier. */
  public static final int SIZE = 16;

  /** The all-zero identifier. */
  public static final Id128 ZERO = new Id128(new byte[SIZE]);

  private final byte[] bytes;

  private Id128(byte[] bytes) {
    this.bytes = bytes;
  }

  /**
   * Copies 16 bytes into a new identifier.
   *
   * @throws InvalidArgumentException if {@code bytes} is not exactly 16 bytes long
   */
  public static Id128 of(byte[] bytes) {
    if (bytes.length != SIZE) {
      throw new InvalidArgumentException(
          "a 128-bit id needs exactly 16 bytes, got " + bytes.length);
    }
    return new Id128(bytes.clone());
  }

  /** Copies the 16 bytes at {@code offset} of {@code source}; the caller has checked the bounds. */
  static Id128 read(byte[] source, int offset) {
    return new Id128(Arrays.copyOfRange(source, offset, offset + SIZE));
  }

  /**
   * Parses 32 lowercase hex digits, the form used in object keys.
   *
   * @throws InvalidArgumentException if the text is not 32 lowercase hex digits
   */
  public static Id128 fromHex(String hex) {
    if (hex.length() != 2 * SIZE || !isLowerHex(hex)) {
      throw new InvalidArgumentException(
          "a 128-bit id is written as 32 lowercase hex digits, got \"" + hex + "\"");
    }
    return new Id128(HexFormat.of().parseHex(hex));
  }

  static boolean isLowerHex(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }

  /** A copy of the 16 bytes. */
  public byte[] toBytes() {
    return bytes.clone();
  }

  void writeTo(byte[] target, int offset) {
    System.arraycopy(bytes, 0, target, offset, SIZE);
  }

  /** True for the all-zero identifier. */
  public boolean isZero() {
    for (byte b : bytes) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }

  /** The 32 lowercase hex digits used in object keys. */
  public String hex() {
    return HexFormat.of().formatHex(bytes);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Id128 that && Arrays.equals(bytes, that.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return hex();
  }
}
