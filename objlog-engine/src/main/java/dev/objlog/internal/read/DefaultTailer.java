package dev.objlog.internal.read;

import dev.objlog.internal.Elapsed;
import dev.objlog.internal.LogThread;
import dev.objlog.read.Freshness;
import dev.objlog.read.PartitionNotWatchedException;
import dev.objlog.read.ReadRecord;
import dev.objlog.read.ReadResult;
import dev.objlog.read.ReaderClosedException;
import dev.objlog.read.Tailer;
import dev.objlog.read.WatchClosedException;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * Follows one watched partition (PROTOCOLS.md §5.6): read with {@link Freshness#ON_TAIL}; records
 * are returned at once; with none, and the known head not beyond the position, wait for the
 * partition's head to change (poller or local commit), the watch or tailer to close, the
 * partition to be removed, the deadline, or an interrupt.
 *
 * <p>Behind the head, the tailer reads ahead as a replay does: when a read leaves at least one
 * more batch below the head it knows, the following batches come from a {@link Replay} of the
 * backlog (up to {@link dev.objlog.read.ReaderOptions#readAheadBlocks()} blocks decoded on the
 * runtime's executor while the caller works on the current batch), until it reaches the head it
 * was planned against; then reads go on as before. At the head there is nothing to read ahead, so
 * a caught-up tailer reads and waits exactly as without it. At most max(2, processors) tailers
 * of a log read ahead at once (their decoded blocks are not in the budget's caches; the limit is
 * what bounds them); the others read as usual. A tailer consumed on a thread of the
 * log's own pool ({@link LogThread}) never reads ahead: it would wait for the pool it runs on.
 * Records stay contiguous and in LSN order either way; the replay is closed (its pending blocks cancelled) when the tailer closes,
 * fails, is interrupted, or its watch, partition or reader goes away.
 *
 * <p>Thread-safety: one consuming thread; {@link #close()} and {@link #position()} from any.
 */
final class DefaultTailer implements Tailer {
  private final DefaultWatch watch;
  private final DefaultPartitionReader reader;
  private final int limit;
  private volatile long position;
  private volatile boolean closed;
  /**
   * The backlog's read-ahead, starting at {@link #position}; null when none runs. While set it
   * holds one of the log's {@code tailerReadAheads} permits, given back by whoever clears it.
   */
  private final AtomicReference<@Nullable Replay> ahead = new AtomicReference<>();

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
      if (stopRequested()) {
        closeAhead();
      }
      checkState();
      if (Thread.interrupted()) {
        closeAhead();
        throw new InterruptedException("tailer of partition " + Integer.toUnsignedString(reader.partition)
            + " interrupted");
      }
      ReadResult ahead = readAhead();
      if (ahead != null) {
        return ahead;
      }
      long seen = tracker.version();
      ReadResult result = reader.read(position, limit, Freshness.ON_TAIL);
      if (!result.records().isEmpty()) {
        position = result.nextLsn();
        startReadAheadIfBehind();
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

  /**
   * The next batch from the read-ahead, or null when none runs or it reached its end (the caller
   * then reads as usual). On any failure the read-ahead is dropped and the position stays where
   * the last returned batch left it, so the next call reads those records again.
   */
  private @Nullable ReadResult readAhead() throws InterruptedException {
    Replay r = ahead.get();
    if (r == null) {
      return null;
    }
    int max = reader.effectiveLimit(limit);
    List<ReadRecord> out = new ArrayList<>(Math.min(max, 1024));
    long started = ticker().read();
    try {
      while (out.size() < max && r.hasNext()) {
        out.add(r.next());
      }
    } catch (ObjectNotFoundException e) {
      // Retention moved on twice under this read-ahead: the usual read decides (retry or expired).
      closeAhead();
      return null;
    } catch (RuntimeException e) {
      closeAhead();
      if (stopRequested()) {
        checkState(); // closed meanwhile (a cancelled block): say so as a waiting next() would
      }
      if (e instanceof ReaderClosedException && Thread.interrupted()) {
        throw new InterruptedException("tailer of partition " + Integer.toUnsignedString(reader.partition)
            + " interrupted while reading ahead");
      }
      throw e;
    } finally {
      reader.meters.read.record(ticker().read() - started, TimeUnit.NANOSECONDS);
    }
    if (out.isEmpty()) {
      closeAhead(); // at the end of what it planned (or closed): read as usual
      if (stopRequested()) {
        checkState();
      }
      return null;
    }
    if (out.get(0).lsn() != position) {
      closeAhead();
      throw new IllegalStateException("read-ahead of partition " + Integer.toUnsignedString(reader.partition)
          + " is at LSN " + Long.toUnsignedString(out.get(0).lsn()) + ", not at the position "
          + Long.toUnsignedString(position));
    }
    position = out.get(out.size() - 1).lsn() + 1;
    HeadView head = Objects.requireNonNull(reader.tracker.current()); // set by the read that started it
    return new ReadResult(out, position, head.view());
  }

  /**
   * After a read that returned records: if at least one more batch waits below the known head,
   * reads the backlog ahead. Fewer, and the next read is one request as before (a tailer keeping
   * up with a writer does not pay a read-ahead's hand-over for a few records).
   */
  private void startReadAheadIfBehind() {
    if (reader.owner.options().readAheadBlocks() == 0 || LogThread.isCurrent()) {
      return; // on a thread of the log's own pool, waiting for its other threads could deadlock
    }
    HeadView known = reader.tracker.current();
    if (known == null || known.head() == null) {
      return;
    }
    long from = position;
    long end = known.nextLsn();
    if (Long.compareUnsigned(from, end) >= 0
        || Long.compareUnsigned(end - from, reader.effectiveLimit(limit)) < 0) {
      return;
    }
    Semaphore permits = reader.owner.runtime().tailerReadAheads();
    if (!permits.tryAcquire()) {
      return; // as many tailers of this log read ahead as it allows: this one reads as usual
    }
    Replay r;
    try {
      r = reader.replayAgainst(known, from, end);
    } catch (RuntimeException e) {
      permits.release();
      throw e;
    }
    ahead.set(r);
    if (closed) {
      closeAhead(); // close() ran before it could see this one
    }
  }

  private void closeAhead() {
    Replay r = ahead.getAndSet(null);
    if (r != null) {
      try {
        r.close();
      } finally {
        reader.owner.runtime().tailerReadAheads().release();
      }
    }
  }

  /** Whether a read-ahead runs (for tests). */
  boolean readingAhead() {
    return ahead.get() != null;
  }

  @Override
  public void close() {
    closed = true;
    closeAhead();
    reader.tracker.wakeAll();
  }
}
