package dev.objlog.format.segment;

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

  /** A reader over bytes already in memory (copies each requested range). */
  static RangeReader ofBytes(byte[] object) {
    return (offset, length) -> {
      if (offset < 0 || length < 0 || offset > object.length - (long) length) {
        throw new dev.objlog.InvalidArgumentException("range [" + offset + ", +" + length
            + ") outside an object of " + object.length + " bytes");
      }
      return java.util.Arrays.copyOfRange(object, (int) offset, (int) offset + length);
    };
  }
}
