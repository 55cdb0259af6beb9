package dev.objlog.format.segment;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * One record header: a non-empty binary key and a possibly empty binary value.
 *
 * <p>The arrays are held as given, not copied, so large batches encode without extra copies; treat
 * them as immutable once handed over. Equality compares contents. Limits (FORMAT.md §1.2) are
 * checked by the encoder, not here, so that invalid headers can be represented and rejected.
 *
 * <p>Thread-safety: immutable if its arrays are not mutated; then safe to share.
 */
public record RecordHeader(byte[] key, byte[] value) {
  public RecordHeader {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RecordHeader other
        && Arrays.equals(key, other.key)
        && Arrays.equals(value, other.value);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    return "RecordHeader[key=" + HexFormat.of().formatHex(key) + ", value.length=" + value.length + "]";
  }
}
