package dev.objlog.read;

import dev.objlog.PartitionHead;
import java.util.Collection;

/**
 * Reads one stream of an {@link dev.objlog.Objlog}: per-partition readers, watches for tailing,
 * and the caches they share (segment indexes, decoded blocks, the heads this reader has seen).
 * Obtain one with {@link dev.objlog.Objlog#reader()} (shared, closed with the log) or {@link
 * dev.objlog.Objlog#newReader(ReaderOptions)}.
 *
 * <p>Thread-safety: safe for concurrent use. {@link #close()} stops the reader's watch poller,
 * closes its watches (waking blocked tailers with {@link WatchClosedException}) and makes later
 * calls fail with {@link ReaderClosedException}; it is idempotent.
 */
public interface LogReader extends AutoCloseable {

  /** The reader of one partition (cheap; the same instance for the same partition). */
  PartitionReader partition(int partition);

  /**
   * The partition's head, refreshed from the store (a conditional GET). A partition that does not
   * exist yet reads as empty at LSN 0.
   */
  PartitionHead head(int partition);

  /**
   * Starts watching {@code partitions}: the reader's one background poller refreshes their heads
   * every {@link ReaderOptions#pollInterval()}, and commits by writers in this JVM wake tailers at
   * once. Close the watch when done.
   */
  Watch watch(Collection<Integer> partitions);

  /** {@link #watch(Collection)} of the given partitions. */
  Watch watch(int... partitions);

  ReaderOptions options();

  @Override
  void close();
}
