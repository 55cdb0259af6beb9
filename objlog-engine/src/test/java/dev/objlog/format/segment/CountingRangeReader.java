package dev.objlog.format.segment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A {@link RangeReader} over bytes in memory that records every range asked for. */
final class CountingRangeReader implements RangeReader {
  record Range(long offset, int length) {}

  private final byte[] object;
  private final List<Range> reads = new ArrayList<>();

  CountingRangeReader(byte[] object) {
    this.object = object;
  }

  @Override
  public byte[] read(long offset, int length) {
    if (offset < 0 || length < 0 || offset + length > object.length) {
      throw new AssertionError("range [" + offset + ", +" + length + ") outside the object of "
          + object.length + " bytes");
    }
    reads.add(new Range(offset, length));
    return Arrays.copyOfRange(object, (int) offset, (int) offset + length);
  }

  List<Range> reads() {
    return List.copyOf(reads);
  }

  long bytesRead() {
    return reads.stream().mapToLong(Range::length).sum();
  }

  void reset() {
    reads.clear();
  }
}
