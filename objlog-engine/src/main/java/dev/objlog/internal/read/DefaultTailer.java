package dev.objlog.internal.read;

import dev.objlog.internal.Elapsed;
import dev.objlog.read.Freshness;
import dev.objlog.read.PartitionNotWatchedException;
import dev.objlog.read.ReadResult;
import dev.objlog.read.ReaderClosedException;
import dev.objlog.read.Tailer;
import dev.objlog.read.WatchClosedException;
import dev.objlog.store.Ticker;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Follows one watched partition (PROTOCOLS.md §5.6): read with {@link Freshness#ON_TAIL}; records
 * are returned at once; with none, and the known head not beyond the position, wait for the
 * partition's head to change (poller or local commit), the watch or tailer to close, the
 * partition to be removed, the deadline, or an interrupt.
 *
 * <p>Thread-safety: one consuming thread; {@link #close()} and {@link #position()} from any.
 */
final class DefaultTailer implements Tailer {
  private final DefaultWatch watch;
  private final DefaultPartitionReader reader;
  private final int limit;
  private volatile long position;
  private volatile boolean closed;

  DefaultTailer(DefaultWatch watch, DefaultPartitionReader reader, long startLsn, int limit) {
    this.watch = watch;
    this.reader = reader;
    this.position = startLsn;
    this.limit = limit;
  }

  @Override
  public int partition() {
    return reader.partition;
  }

  @Override
  public ReadResult next() throws InterruptedException {
    return next(false, 0);
  }

  @Override
  public ReadResult next(Duration timeout) throws InterruptedException {
    Objects.requireNonNull(timeout, "timeout");
    long nanos = Elapsed.nanos(timeout);
    if (nanos == Long.MAX_VALUE) {
      return next(false, 0); // some 292 years: no deadline
    }
    // On the log's ticker, not the wall clock: a wall-clock jump neither ends nor stretches the
    // wait. Readings may wrap, so the deadline is compared by subtraction only.
    return next(true, ticker().read() + nanos);
  }

  private Ticker ticker() {
    return reader.owner.runtime().ticker();
  }

  /** @param deadline a ticker reading, when {@code timed} */
  private ReadResult next(boolean timed, long deadline) throws InterruptedException {
    HeadTracker tracker = reader.tracker;
    while (true) {
      checkState();
      if (Thread.interrupted()) {
        throw new InterruptedException("tailer of partition " + Integer.toUnsignedString(reader.partition)
            + " interrupted");
      }
      long seen = tracker.version();
      ReadResult result = reader.read(position, limit, Freshness.ON_TAIL);
      if (!result.records().isEmpty()) {
        position = result.nextLsn();
        return result;
      }
      HeadView known = tracker.current();
      if (known != null && !known.atOrBeyondTail(position)) {
        continue; // the head moved on while we read: read again
      }
      boolean changed = tracker.awaitChange(seen, timed, deadline, this::stopRequested);
      if (changed) {
        reader.meters.wakeup(tracker.lastSource()).increment();
      } else if (!stopRequested() && timed && ticker().read() - deadline >= 0) {
        HeadView head = tracker.current();
        return new ReadResult(List.of(), position,
            head != null ? head.view() : HeadView.absent(reader.streamId(), reader.partition).view());
      }
    }
  }

  private boolean stopRequested() {
    return closed || watch.isClosed() || !watch.isWatching(reader.partition) || reader.owner.isClosed();
  }

  private void checkState() {
    if (closed) {
      throw new WatchClosedException("the tailer of partition " + Integer.toUnsignedString(reader.partition)
          + " is closed");
    }
    if (watch.isClosed()) {
      throw new WatchClosedException("the watch of partition " + Integer.toUnsignedString(reader.partition)
          + " is closed");
    }
    if (reader.owner.isClosed()) {
      throw new ReaderClosedException("the reader is closed");
    }
    if (!watch.isWatching(reader.partition)) {
      throw new PartitionNotWatchedException("partition " + Integer.toUnsignedString(reader.partition)
          + " was removed from the watch");
    }
  }

  @Override
  public long position() {
    return position;
  }

  @Override
  public void close() {
    closed = true;
    reader.tracker.wakeAll();
  }
}
