package dev.objlog.format.catalog;

import dev.objlog.InvalidArgumentException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * A 32-byte SHA-256 identity as stored in catalog headers: the stream key and the data-root key.
 * The format never allows the all-zero value in either field.
 *
 * <p>Thread-safety: immutable; the bytes are copied in and out.
 */
public final class Key256 {
  /** Number of bytes in the key. */
  public static final int SIZE = 32;

  /** The all-zero key (never valid in a stored object; useful as a placeholder in tests). */
  public static final Key256 ZERO = new Key256(new byte[SIZE]);

  private final byte[] bytes;

  private Key256(byte[] bytes) {
    this.bytes = bytes;
  }

  /**
   * Copies 32 bytes into a new key.
   *
   * @throws InvalidArgumentException if {@code bytes} is not exactly 32 bytes long
   */
  public static Key256 of(byte[] bytes) {
    if (bytes.length != SIZE) {
      throw new InvalidArgumentException(
          "a 256-bit key needs exactly 32 bytes, got " + bytes.length);
    }
    return new Key256(bytes.clone());
  }

  /** Copies the 32 bytes at {@code offset} of {@code source}; the caller has checked the bounds. */
  static Key256 read(byte[] source, int offset) {
    return new Key256(Arrays.copyOfRange(source, offset, offset + SIZE));
  }

  /**
   * Parses 64 lowercase hex digits, the form used in object keys.
   *
   * @throws InvalidArgumentException if the text is not 64 lowercase hex digits
   */
  public static Key256 fromHex(String hex) {
    if (hex.length() != 2 * SIZE || !Id128.isLowerHex(hex)) {
      throw new InvalidArgumentException(
          "a 256-bit key is written as 64 lowercase hex digits, got \"" + hex + "\"");
    }
    return new Key256(HexFormat.of().parseHex(hex));
  }

  /** A copy of the 32 bytes. */
  public byte[] toBytes() {
    return bytes.clone();
  }

  void writeTo(byte[] target, int offset) {
    System.arraycopy(bytes, 0, target, offset, SIZE);
  }

  /** True for the all-zero key. */
  public boolean isZero() {
    for (byte b : bytes) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }

  /** The 64 lowercase hex digits used in object keys. */
  public String hex() {
    return HexFormat.of().formatHex(bytes);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Key256 that && Arrays.equals(bytes, that.bytes);
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
