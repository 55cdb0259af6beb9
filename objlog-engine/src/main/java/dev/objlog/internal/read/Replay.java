package dev.objlog.internal.read;

import dev.objlog.CorruptObjectException;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.internal.catalog.SegmentListing;
import dev.objlog.read.ReadRecord;
import dev.objlog.read.ReaderClosedException;
import dev.objlog.store.ObjectNotFoundException;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * A bulk read of {@code [from, end)} that keeps up to {@code depth} blocks (and the segment opens
 * they need) in flight on the runtime's executor while the consumer works through the current
 * one. The plan walks the catalog listing of one head; block fetches complete in any order but
 * are consumed strictly in LSN order. Memory is bounded by {@code depth + 1} decoded blocks.
 *
 * <p>A missing segment or page (retention trimmed behind the replay's head) triggers one head
 * refresh: below the new floor the replay fails with {@link dev.objlog.LsnExpiredException},
 * otherwise it re-plans from its position against the new head.
 *
 * <p>Thread-safety: one consuming thread; {@link #close()} may come from any thread.
 */
final class Replay implements Iterator<ReadRecord>, AutoCloseable {
  private static final int LIST_PAGE = 128;

  private final DefaultPartitionReader reader;
  private final long end;
  private final int depth;
  private final Executor executor;
  private final ConcurrentLinkedDeque<Unit> pending = new ConcurrentLinkedDeque<>();

  private HeadView head;
  private long position;
  private boolean retried;
  private volatile boolean closed;

  // the plan
  private @Nullable List<LeafEntry> listed;
  private int listedIndex;
  private long listFrom;
  private boolean listMore;
  private boolean firstSegment;
  private @Nullable LeafEntry entry;
  private volatile @Nullable CompletableFuture<SegmentAccess.OpenSegment> entryOpen;
  private int nextBlock;
  private int blockLimit;

  // the block being consumed
  private @Nullable List<ReadRecord> records;
  private int recordIndex;
  /**
   * Records handed out and not yet counted: the meter is told once per block (and at close), not
   * per record, which showed up in ≈ 5 % of a replay's CPU samples. The consumer's field: a close
   * from another thread may count a block's records late or not at all, which only the meter sees.
   */
  private long uncounted;

  /** One block to read: the segment's open (shared by its blocks) and the block's decode. */
  private record Unit(CompletableFuture<SegmentAccess.OpenSegment> open, CompletableFuture<List<ReadRecord>> records) {
    /** A cancelled task that has not started yet does nothing when the executor runs it. */
    void cancel() {
      records.cancel(false);
      open.cancel(false);
    }
  }

  Replay(DefaultPartitionReader reader, HeadView head, long from, long end, int depth, Executor executor) {
    this.reader = reader;
    this.head = head;
    this.position = from;
    this.end = end;
    this.depth = depth;
    this.executor = executor;
    resetPlan();
  }

  private void resetPlan() {
    for (Unit u : pending) {
      u.cancel();
    }
    pending.clear();
    listed = null;
    listedIndex = 0;
    listFrom = position;
    listMore = true;
    firstSegment = true;
    entry = null;
    entryOpen = null;
    records = null;
  }

  private boolean done() {
    return Long.compareUnsigned(position, end) >= 0 || head.head() == null;
  }

  @Override
  public boolean hasNext() {
    if (closed) {
      return false;
    }
    while (true) {
      if (done()) {
        close();
        return false;
      }
      List<ReadRecord> current = records;
      if (current != null) {
        while (recordIndex < current.size()
            && Long.compareUnsigned(current.get(recordIndex).lsn(), position) < 0) {
          recordIndex++;
        }
        if (recordIndex < current.size()) {
          long lsn = current.get(recordIndex).lsn();
          if (lsn != position) {
            throw new CorruptObjectException("replay of partition " + Integer.toUnsignedString(reader.partition)
                + " expected LSN " + Long.toUnsignedString(position) + " but the block holds "
                + Long.toUnsignedString(lsn));
          }
          return true;
        }
        records = null;
        countRecords();
      }
      try {
        fill();
        // Peeked, not taken, while it is awaited: a close from another thread cancels it too,
        // which wakes this thread.
        Unit unit = pending.peek();
        if (unit == null) {
          throw new CorruptObjectException("catalog of partition " + Integer.toUnsignedString(reader.partition)
              + " ends at LSN " + Long.toUnsignedString(position) + " before the head's next LSN "
              + Long.toUnsignedString(head.nextLsn()));
        }
        records = await(unit.records());
        pending.poll();
        recordIndex = 0;
        fill();
      } catch (ObjectNotFoundException e) {
        if (retried) {
          throw e;
        }
        retried = true;
        reader.meters.retries.increment();
        head = reader.tracker.refresh(HeadTracker.Source.READ);
        DefaultPartitionReader.requireNotExpired(head, position);
        resetPlan();
      }
    }
  }

  @Override
  public ReadRecord next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    ReadRecord r = Objects.requireNonNull(records).get(recordIndex++);
    position = r.lsn() + 1;
    uncounted++;
    return r;
  }

  private void countRecords() {
    if (uncounted > 0) {
      reader.meters.records.increment(uncounted);
      uncounted = 0;
    }
  }

  /**
   * Starts block reads until {@code depth} are in flight beyond the one being consumed (plus the
   * one to consume next, when none is).
   */
  private void fill() {
    int want = depth + (records == null ? 1 : 0);
    while (pending.size() < want) {
      Unit unit = planNext();
      if (unit == null) {
        return;
      }
      pending.add(unit);
    }
  }

  /** The next block of the plan, already started (or, with depth 0, completed), or null at the end. */
  private @Nullable Unit planNext() {
    Head h = Objects.requireNonNull(head.head());
    while (entry == null || nextBlock >= blockLimit) {
      LeafEntry e = nextEntry(h);
      if (e == null) {
        return null;
      }
      entry = e;
      if (firstSegment) {
        // The start block needs the index: open the first segment here, on the consumer's thread.
        reader.requireContains(e, position);
        SegmentAccess.OpenSegment open = reader.segments().open(reader.keys, e, reader.meters);
        entryOpen = CompletableFuture.completedFuture(open);
        nextBlock = Math.max(0, open.reader().blockIndexForLsn(position));
        blockLimit = open.blockCount();
        firstSegment = false;
      } else {
        entryOpen = depth == 0
            ? CompletableFuture.completedFuture(reader.segments().open(reader.keys, e, reader.meters))
            : supply(() -> reader.segments().open(reader.keys, e, reader.meters));
        nextBlock = 0;
        blockLimit = (int) e.blockCount();
      }
    }
    CompletableFuture<SegmentAccess.OpenSegment> open = Objects.requireNonNull(entryOpen);
    int block = nextBlock++;
    if (depth == 0) {
      SegmentAccess.OpenSegment segment = await(open);
      return new Unit(open, CompletableFuture.completedFuture(
          reader.segments().block(segment, block, false, reader.meters)));
    }
    try {
      return new Unit(open, open.thenApplyAsync(
          segment -> reader.segments().block(segment, block, false, reader.meters), executor));
    } catch (RejectedExecutionException e) {
      throw new ReaderClosedException("replay cannot read ahead: the log's executor is shut down", e);
    }
  }

  /** The next listed segment that starts before {@code end}, or null. */
  private @Nullable LeafEntry nextEntry(Head h) {
    while (true) {
      List<LeafEntry> page = listed;
      if (page != null && listedIndex < page.size()) {
        LeafEntry e = page.get(listedIndex++);
        if (Long.compareUnsigned(e.baseLsn(), end) >= 0) {
          return null;
        }
        if (Long.compareUnsigned(e.lastLsn(), position) < 0 && firstSegment) {
          continue;
        }
        return e;
      }
      if (!listMore || Long.compareUnsigned(listFrom, end) >= 0) {
        return null;
      }
      SegmentListing listing = reader.catalog.listSegments(h, listFrom, LIST_PAGE);
      listed = listing.segments();
      listedIndex = 0;
      listMore = listing.hasMore() && !listing.segments().isEmpty();
      listFrom = listing.nextLsn();
      if (listing.segments().isEmpty()) {
        return null;
      }
    }
  }

  private <T> CompletableFuture<T> supply(java.util.function.Supplier<T> task) {
    try {
      return CompletableFuture.supplyAsync(task, executor);
    } catch (RejectedExecutionException e) {
      throw new ReaderClosedException("replay cannot read ahead: the log's executor is shut down", e);
    }
  }

  private static <T> T await(CompletableFuture<T> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ReaderClosedException("replay interrupted", e);
    } catch (ExecutionException e) {
      throw HeadTracker.rethrow(e.getCause());
    } catch (CompletionException e) {
      throw HeadTracker.rethrow(e.getCause());
    }
  }

  /**
   * Cancels the blocks and segment opens in flight: those not started yet never run; one already
   * running finishes on the executor and its result is dropped (an open still lands in the
   * segment cache, on the memory budget like any other).
   */
  @Override
  public void close() {
    closed = true;
    countRecords();
    for (Unit u : pending.toArray(new Unit[0])) {
      u.cancel();
    }
    CompletableFuture<SegmentAccess.OpenSegment> open = entryOpen;
    if (open != null) {
      open.cancel(false);
    }
  }
}
