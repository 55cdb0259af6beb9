package dev.objlog.benchmarks;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;

/** Test data and small statistics shared by the harness scenarios. */
final class Data {
  private Data() {}

  private static final String[] WORDS = {"order", "customer", "id", "amount", "currency", "EUR", "USD",
      "status", "pending", "shipped", "\"", ":", ",", "{", "}", "true", "false", "null", "item", "sku",
      "quantity", "price", "address", "street", "city", "zip", "country", "timestamp"};

  /**
   * A pool of text-like bytes (random words and numbers: compresses about 3× at zstd level 1,
   * like JSON payloads). Record values are slices of it, so no two 1 MiB blocks are alike.
   */
  static byte[] textPool(int bytes, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    byte[] out = new byte[bytes];
    int p = 0;
    while (p < bytes) {
      String w = random.nextInt(5) == 0 ? Long.toString(random.nextLong(1_000_000)) : WORDS[random.nextInt(WORDS.length)];
      for (int i = 0; i < w.length() && p < bytes; i++) {
        out[p++] = (byte) w.charAt(i);
      }
      if (p < bytes) {
        out[p++] = ' ';
      }
    }
    return out;
  }

  /** The value of record {@code i} of {@code valueBytes} bytes, cut from the pool. */
  static byte[] value(byte[] pool, long i, int valueBytes) {
    int slots = pool.length / valueBytes;
    int from = (int) ((i % slots) * valueBytes);
    // shift by a record-dependent amount so values of consecutive passes over the pool differ
    int shift = (int) ((i / slots) % 61);
    from = Math.min(from + shift, pool.length - valueBytes);
    return Arrays.copyOfRange(pool, from, from + valueBytes);
  }

  /**
   * {@link #value} with {@code i} in its first 8 bytes: how P10 and P10X's listeners find the
   * record's send time. {@code valueBytes} must be at least 8.
   */
  static byte[] indexedValue(byte[] pool, int i, int valueBytes) {
    byte[] v = value(pool, i, valueBytes);
    ByteBuffer.wrap(v).putLong(0, i);
    return v;
  }

  /**
   * The raw block contents the segment encoder builds from records without headers: a 16-byte
   * envelope (timestamp, header length 0, value length) then the value, cut at {@code blockBytes}.
   */
  static byte[][] rawBlocks(byte[] pool, long records, int valueBytes, int blockBytes, long ts0) {
    return rawBlocks(pool, records, valueBytes, blockBytes, ts0, 1);
  }

  /** As {@link #rawBlocks(byte[], long, int, int, long)}, record i stamped {@code ts0 + i * tsStep}. */
  static byte[][] rawBlocks(byte[] pool, long records, int valueBytes, int blockBytes, long ts0, long tsStep) {
    int recordBytes = valueBytes + 16;
    int perBlock = Math.max(1, blockBytes / recordBytes);
    int blocks = (int) ((records + perBlock - 1) / perBlock);
    byte[][] out = new byte[blocks][];
    long i = 0;
    for (int b = 0; b < blocks; b++) {
      int n = (int) Math.min(perBlock, records - i);
      ByteBuffer buf = ByteBuffer.allocate(n * recordBytes);
      for (int k = 0; k < n; k++, i++) {
        buf.putLong(ts0 + i * tsStep).putInt(0).putInt(valueBytes).put(value(pool, i, valueBytes));
      }
      out[b] = buf.array();
    }
    return out;
  }

  static double percentile(double[] sorted, double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int idx = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, idx))];
  }

  static double median(double[] values) {
    double[] s = values.clone();
    Arrays.sort(s);
    int n = s.length;
    return n == 0 ? Double.NaN : n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  static double round(double v, int digits) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return v;
    }
    double f = Math.pow(10, digits);
    return Math.round(v * f) / f;
  }

  static final double MB = 1_000_000.0;
  static final long MiB = 1L << 20;
}
