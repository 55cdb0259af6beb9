package dev.objlog.format.catalog;

import dev.objlog.InvalidArgumentException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * What {@link Id128} and {@link Key256} share: a fixed number of bytes held privately, compared by
 * content within one type, printed as lowercase hex as in object keys.
 *
 * <p>Thread-safety: immutable; the bytes are copied in and out.
 */
abstract class FixedBytes {
  private final byte[] bytes;

  FixedBytes(byte[] bytes) {
    this.bytes = bytes;
  }

  /** A copy of {@code bytes}, refused unless it has exactly {@code size} bytes. */
  static byte[] exactCopy(byte[] bytes, int size, String what) {
    if (bytes.length != size) {
      throw new InvalidArgumentException(what + " needs exactly " + size + " bytes, got " + bytes.length);
    }
    return bytes.clone();
  }

  /** The bytes of {@code hex}, refused unless it is exactly {@code 2 * size} lowercase hex digits. */
  static byte[] parseLowerHex(String hex, int size, String what) {
    if (hex.length() != 2 * size || !isLowerHex(hex)) {
      throw new InvalidArgumentException(
          what + " is written as " + 2 * size + " lowercase hex digits, got \"" + hex + "\"");
    }
    return HexFormat.of().parseHex(hex);
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

  /** A copy of the bytes. */
  public byte[] toBytes() {
    return bytes.clone();
  }

  void writeTo(byte[] target, int offset) {
    System.arraycopy(bytes, 0, target, offset, bytes.length);
  }

  /** True when every byte is zero. */
  public boolean isZero() {
    for (byte b : bytes) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }

  /** The lowercase hex digits used in object keys. */
  public String hex() {
    return HexFormat.of().formatHex(bytes);
  }

  @Override
  public boolean equals(Object other) {
    return other != null && other.getClass() == getClass() && Arrays.equals(bytes, ((FixedBytes) other).bytes);
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
