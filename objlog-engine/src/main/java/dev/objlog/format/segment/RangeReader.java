package dev.objlog.format.segment;

import java.nio.ByteBuffer;
import org.jspecify.annotations.Nullable;

/**
 * Fetches bytes of one segment object by range, the only way a {@link SegmentReader} sees the
 * object. The caller supplies it (typically a ranged GET on an object store).
 *
 * <p>Must return exactly {@code length} bytes starting at {@code offset}; a reader that returns
 * fewer or more is treated as a truncated or corrupt object. Exceptions it throws (I/O failures,
 * typically an {@link dev.objlog.ObjlogException} from the store layer) propagate unchanged.
 *
 * <p>Thread-safety: a reader shared by several threads (a {@link SegmentReader} is shareable) must
 * be safe for concurrent calls.
 */
@FunctionalInterface
public interface RangeReader {
  byte[] read(long offset, int length);

  /**
   * Reads {@code length} bytes starting at {@code offset} into {@code dst[dstOffset, dstOffset +
   * length)} and returns how many it wrote; anything but {@code length} is treated like a short
   * {@link #read}. A {@link RecordCursor} fetches every block through this into one reused buffer,
   * so a reader that can fill a caller's array (e.g. straight from a response body) should override
   * it; the default calls {@link #read} and copies.
   */
  default int readInto(long offset, int length, byte[] dst, int dstOffset) {
    byte[] b = read(offset, length);
    // Defensive even under @NullMarked: the reader is foreign code.
    if (b == null || b.length != length) {
      return b == null ? -1 : b.length;
    }
    System.arraycopy(b, 0, dst, dstOffset, length);
    return length;
  }

  /**
   * The {@code length} bytes at {@code offset} without copying them, when the reader already holds
   * them in memory (or has just received them into an array of its own): a buffer whose {@code
   * remaining()} bytes are the range. Null (the default) means the reader cannot, and block reads go
   * through {@link #readInto}. A {@link RecordCursor} reads block bytes straight from the view and
   * never writes to it; the bytes must stay unchanged for as long as records read from them are in
   * use. A buffer of the wrong length is treated like a short {@link #read}.
   */
  default @Nullable ByteBuffer view(long offset, int length) {
    return null;
  }

  /**
   * A reader over bytes already in memory, which must not change while it is in use: {@link #read}
   * and {@link #readInto} copy the range, {@link #view} lends it.
   */
  static RangeReader ofBytes(byte[] object) {
    return new RangeReader() {
      @Override
      public byte[] read(long offset, int length) {
        check(offset, length);
        return java.util.Arrays.copyOfRange(object, (int) offset, (int) offset + length);
      }

      @Override
      public int readInto(long offset, int length, byte[] dst, int dstOffset) {
        check(offset, length);
        System.arraycopy(object, (int) offset, dst, dstOffset, length);
        return length;
      }

      @Override
      public ByteBuffer view(long offset, int length) {
        check(offset, length);
        return ByteBuffer.wrap(object, (int) offset, length);
      }

      private void check(long offset, int length) {
        if (offset < 0 || length < 0 || offset > object.length - (long) length) {
          throw new dev.objlog.InvalidArgumentException("range [" + offset + ", +" + length
              + ") outside an object of " + object.length + " bytes");
        }
      }
    };
  }
}
