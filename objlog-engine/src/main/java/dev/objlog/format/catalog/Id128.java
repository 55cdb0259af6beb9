package dev.objlog.format.catalog;

import dev.objlog.InvalidArgumentException;
import java.util.Arrays;

/**
 * A 16-byte identifier as stored in catalog objects: page ids, segment uuids, writer ids and
 * writer tags. The all-zero value means "absent" wherever the format allows absence.
 *
 * <p>Thread-safety: immutable; the bytes are copied in and out.
 */
public final class Id128 extends FixedBytes {
  /** Number of bytes in the identifier. */
  public static final int SIZE = 16;

  /** The all-zero identifier. */
  public static final Id128 ZERO = new Id128(new byte[SIZE]);

  private Id128(byte[] bytes) {
    super(bytes);
  }

  /**
   * Copies 16 bytes into a new identifier.
   *
   * @throws InvalidArgumentException if {@code bytes} is not exactly 16 bytes long
   */
  public static Id128 of(byte[] bytes) {
    return new Id128(exactCopy(bytes, SIZE, "a 128-bit id"));
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
    return new Id128(parseLowerHex(hex, SIZE, "a 128-bit id"));
  }
}
