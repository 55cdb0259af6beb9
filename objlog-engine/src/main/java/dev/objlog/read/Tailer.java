package dev.objlog.read;

import java.time.Duration;

/**
 * Follows one watched partition: each {@link #next()} returns the next records, waiting for new
 * commits when it is at the tail.
 *
 * <p>Thread-safety: for one consuming thread; {@link #close()} and {@link #position()} may be
 * called from any thread (closing wakes a blocked {@link #next()}).
 */
public interface Tailer extends AutoCloseable {

  int partition();

  /**
   * The next non-empty batch: returns at once when records exist at the position, otherwise blocks
   * until a newer head shows some (from the poller or a local commit), and advances past them.
   *
   * @throws InterruptedException if the thread is interrupted while waiting (the position is
   *     unchanged)
   * @throws WatchClosedException if the watch or this tailer is closed
   * @throws PartitionNotWatchedException if the partition was removed from the watch
   * @throws ReaderClosedException if the reader is closed
   * @throws dev.objlog.LsnExpiredException if the position fell below the retention floor
   */
  ReadResult next() throws InterruptedException;

  /**
   * {@link #next()} waiting at most {@code timeout}; an empty batch (with {@code nextLsn} = the
   * position) when nothing arrived in time.
   */
  ReadResult next(Duration timeout) throws InterruptedException;

  /** The LSN the next batch starts at (u64). */
  long position();

  /** Idempotent; wakes a blocked {@link #next()} with {@link WatchClosedException}. */
  @Override
  void close();
}
