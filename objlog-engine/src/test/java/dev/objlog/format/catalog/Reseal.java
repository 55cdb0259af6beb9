package dev.objlog.format.catalog;

import dev.objlog.format.HashAlgorithm;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Test-side trailer writer, independent of the codec: recomputes both trailer hashes so a
 * deliberately broken object reaches the semantic checks instead of failing on its hash.
 */
final class Reseal {
  private Reseal() {}

  static byte[] reseal(byte[] bytes, HashAlgorithm algorithm) {
    byte[] out = bytes.clone();
    int at = out.length - 32;
    ByteBuffer b = ByteBuffer.wrap(out);
    b.putLong(at + 8, algorithm.hash(out, 0, at));
    byte[] trailer = Arrays.copyOfRange(out, at, out.length);
    Arrays.fill(trailer, 16, 24, (byte) 0);
    b.putLong(at + 16, algorithm.hash(trailer, 0, 32));
    return out;
  }

  /** Applies {@code edit} to a copy of {@code bytes}, then reseals it. */
  static byte[] edit(byte[] bytes, HashAlgorithm algorithm, java.util.function.Consumer<ByteBuffer> edit) {
    byte[] copy = bytes.clone();
    edit.accept(ByteBuffer.wrap(copy));
    return reseal(copy, algorithm);
  }

  /** Inserts or removes bytes before the trailer, keeping the trailer, then reseals. */
  static byte[] resize(byte[] bytes, HashAlgorithm algorithm, int delta) {
    int body = bytes.length - 32;
    byte[] out = new byte[bytes.length + delta];
    System.arraycopy(bytes, 0, out, 0, Math.min(body, body + delta));
    System.arraycopy(bytes, body, out, body + delta, 32);
    return reseal(out, algorithm);
  }
}
