package dev.objlog.spring.core;

import dev.objlog.InvalidArgumentException;
import dev.objlog.format.HashAlgorithm;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Maps a record key to a partition, stably across processes, versions and languages:
 *
 * <pre>
 * partition = XXH64(seed 0, UTF-8 bytes of key) mod partitionCount   (the hash taken as unsigned 64-bit)
 * </pre>
 *
 * <p>For example, with 8 partitions {@code ""} goes to 1, {@code "a"} to 3 and {@code
 * "order-42"} to 6 (docs/SPRING.md lists more). XXH64 is the hash objlog's segment format already
 * uses, so a Go process computing the same function sends a key to the same partition. Changing a
 * stream's partition count moves keys; the count is fixed for the life of a stream.
 *
 * <p>Thread-safety: stateless.
 */
public final class KeyPartitioner {
  private KeyPartitioner() {}

  /** The unsigned XXH64 (seed 0) of the key's UTF-8 bytes. */
  public static long hash(String key) {
    byte[] bytes = Objects.requireNonNull(key, "key").getBytes(StandardCharsets.UTF_8);
    return HashAlgorithm.XXH64.hash(bytes, 0, bytes.length);
  }

  /**
   * The partition of {@code key} in a stream of {@code partitionCount} partitions.
   *
   * @throws InvalidArgumentException if {@code partitionCount} is not positive
   */
  public static int partition(String key, int partitionCount) {
    if (partitionCount < 1) {
      throw new InvalidArgumentException("partitionCount must be positive, was " + partitionCount);
    }
    return (int) Long.remainderUnsigned(hash(key), partitionCount);
  }
}
