package dev.objlog.format.catalog;

import dev.objlog.InvalidArgumentException;
import java.util.Arrays;

/**
 * A 32-byte SHA-256 identity as stored in catalog headers: the stream key and the data-root key.
 * The format never allows the all-zero value in either field.
 *
 * <p>Thread-safety: immutable; the bytes are copied in and out.
 */
public final class Key256 extends FixedBytes {
  /** Number of bytes in the key. */
  public static final int SIZE = 32;

  /** The all-zero key (never valid in a stored object; useful as a placeholder in tests). */
  public static final Key256 ZERO = new Key256(new byte[SIZE]);

  private Key256(byte[] bytes) {
    super(bytes);
  }

  /**
   * Copies 32 bytes into a new key.
   *
   * @throws InvalidArgumentException if {@code bytes} is not exactly 32 bytes long
   */
  public static Key256 of(byte[] bytes) {
    return new Key256(exactCopy(bytes, SIZE, "a 256-bit key"));
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
    return new Key256(parseLowerHex(hex, SIZE, "a 256-bit key"));
  }
}
