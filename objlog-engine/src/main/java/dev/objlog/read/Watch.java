package dev.objlog.read;

import java.util.Set;

/**
 * A set of partitions whose heads the reader keeps fresh (one background poller per reader, plus
 * instant local wake-ups when a writer in this JVM commits), and the tailers that wait on them
 * (PROTOCOLS.md §5.6).
 *
 * <p>Thread-safety: safe for concurrent use. {@link #close()} is idempotent and wakes every
 * blocked tailer of this watch with {@link WatchClosedException}.
 */
public interface Watch extends AutoCloseable {

  /** Adds a partition; adding one already watched does nothing. */
  void addPartition(int partition);

  /**
   * Removes a partition; its tailers then fail with {@link PartitionNotWatchedException}
   * (blocked ones wake at once). Removing one not watched does nothing.
   */
  void removePartition(int partition);

  Set<Integer> partitions();

  /**
   * A tailer reading {@code partition} from {@code startLsn} in batches of up to {@code limit}
   * (≤ 0: the reader's maximum).
   *
   * @throws PartitionNotWatchedException if the partition is not watched
   * @throws WatchClosedException if the watch is closed
   */
  Tailer tail(int partition, long startLsn, int limit);

  @Override
  void close();
}
