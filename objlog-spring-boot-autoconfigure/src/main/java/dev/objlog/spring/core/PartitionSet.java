package dev.objlog.spring.core;

import dev.objlog.InvalidArgumentException;
import java.util.BitSet;
import java.util.Objects;
import java.util.stream.IntStream;

/**
 * A set of partitions of one stream, written as {@code "*"} (all of them) or as a comma-separated
 * list of partitions and inclusive ranges such as {@code "0-3,8"}.
 *
 * <p>Thread-safety: immutable.
 */
public final class PartitionSet {
  private final BitSet partitions;
  private final int partitionCount;
  private final String text;

  private PartitionSet(BitSet partitions, int partitionCount, String text) {
    this.partitions = partitions;
    this.partitionCount = partitionCount;
    this.text = text;
  }

  /** Every partition of a stream with {@code partitionCount} partitions. */
  public static PartitionSet all(int partitionCount) {
    BitSet bits = new BitSet(partitionCount);
    bits.set(0, partitionCount);
    return new PartitionSet(bits, partitionCount, "*");
  }

  /**
   * Parses {@code "*"} or a list such as {@code "0-3,8"} for a stream of {@code partitionCount}
   * partitions. Blanks around items are ignored; an empty list is not allowed.
   *
   * @throws InvalidArgumentException when the text is malformed or names a partition outside
   *     0..partitionCount-1, saying which
   */
  public static PartitionSet parse(String text, int partitionCount) {
    Objects.requireNonNull(text, "text");
    String trimmed = text.trim();
    if (trimmed.equals("*")) {
      return all(partitionCount);
    }
    if (trimmed.isEmpty()) {
      throw new InvalidArgumentException("the partition list is empty; use \"*\" for all partitions");
    }
    BitSet bits = new BitSet(partitionCount);
    for (String item : trimmed.split(",", -1)) {
      String part = item.trim();
      int dash = part.indexOf('-');
      int from = number(dash < 0 ? part : part.substring(0, dash), text);
      int to = dash < 0 ? from : number(part.substring(dash + 1), text);
      if (to < from) {
        throw new InvalidArgumentException("the range \"" + part + "\" in \"" + text + "\" runs backwards");
      }
      if (to >= partitionCount) {
        throw new InvalidArgumentException("partition " + to + " in \"" + text + "\" does not exist: the stream has "
            + partitionCount + " partition" + (partitionCount == 1 ? "" : "s") + " (0-" + (partitionCount - 1) + ")");
      }
      bits.set(from, to + 1);
    }
    return new PartitionSet(bits, partitionCount, trimmed);
  }

  /**
   * The given partitions (possibly none), each in 0..partitionCount-1, written as a list of
   * partitions and ranges ({@code ""} when empty).
   */
  static PartitionSet of(int[] partitions, int partitionCount) {
    BitSet bits = new BitSet(partitionCount);
    for (int p : partitions) {
      if (p < 0 || p >= partitionCount) {
        throw new IllegalArgumentException("partition " + p + " is outside 0-" + (partitionCount - 1));
      }
      bits.set(p);
    }
    StringBuilder text = new StringBuilder();
    for (int from = bits.nextSetBit(0); from >= 0; from = bits.nextSetBit(from + 1)) {
      int to = bits.nextClearBit(from) - 1;
      text.append(text.isEmpty() ? "" : ",").append(from).append(from == to ? "" : "-" + to);
      from = to;
    }
    return new PartitionSet(bits, partitionCount, text.toString());
  }

  private static int number(String digits, String text) {
    String d = digits.trim();
    if (d.isEmpty() || d.length() > 9 || !d.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new InvalidArgumentException("\"" + text + "\" is not \"*\" or a list of partitions and ranges such as \"0-3,8\"");
    }
    return Integer.parseInt(d);
  }

  public boolean contains(int partition) {
    return partition >= 0 && partition < partitionCount && partitions.get(partition);
  }

  /** Whether this is every partition of the stream. */
  public boolean isAll() {
    return partitions.cardinality() == partitionCount;
  }

  public int size() {
    return partitions.cardinality();
  }

  /** The partitions in ascending order. */
  public IntStream stream() {
    return partitions.stream();
  }

  /** The number of partitions of the stream this set belongs to. */
  public int partitionCount() {
    return partitionCount;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PartitionSet s && s.partitionCount == partitionCount && s.partitions.equals(partitions);
  }

  @Override
  public int hashCode() {
    return partitions.hashCode() * 31 + partitionCount;
  }

  /** The text it was parsed from ({@code "*"} for {@link #all}), or the list {@link #of} wrote. */
  @Override
  public String toString() {
    return text;
  }
}
