package dev.objlog.internal.read;

import dev.objlog.ObjlogException;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.internal.catalog.HeadSnapshot;
import dev.objlog.internal.catalog.PartitionCatalog;
import dev.objlog.internal.catalog.SegmentRefs;
import dev.objlog.read.Freshness;
import dev.objlog.store.Ticker;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * One reader's view of one partition's head: the head it last saw (what {@link Freshness#CACHED}
 * reads use), single-flight refreshes through the catalog's conditional GET, and a change counter
 * with a condition that tailers wait on.
 *
 * <p>The head only moves forward: a head whose generation is not above the known one (a refresh
 * that raced a newer head handed over by a local writer) is ignored.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
final class HeadTracker {
  /** Where a head change came from (for the wake-up meter). */
  enum Source {
    POLL,
    LOCAL,
    READ
  }

  private final String streamId;
  private final int partition;
  private final PartitionCatalog catalog;
  private final PartitionKeys keys;
  private final ReaderMeters meters;
  private final Ticker ticker;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();

  private @Nullable HeadView current;
  private long version;
  private Source lastSource = Source.READ;
  private @Nullable CompletableFuture<HeadView> inflight;

  HeadTracker(String streamId, int partition, PartitionCatalog catalog, ReaderMeters meters, Ticker ticker) {
    this.streamId = streamId;
    this.partition = partition;
    this.catalog = catalog;
    this.keys = catalog.keys();
    this.meters = meters;
    this.ticker = ticker;
  }

  String headKey() {
    return catalog.headKey();
  }

  /** The head last seen, or null before the first load. */
  @Nullable HeadView current() {
    lock.lock();
    try {
      return current;
    } finally {
      lock.unlock();
    }
  }

  /** Bumped on every head change; compare before and after waiting. */
  long version() {
    lock.lock();
    try {
      return version;
    } finally {
      lock.unlock();
    }
  }

  Source lastSource() {
    lock.lock();
    try {
      return lastSource;
    } finally {
      lock.unlock();
    }
  }

  /** The head a read starting at {@code startLsn} uses under {@code freshness} (PROTOCOLS.md §5.4). */
  HeadView headFor(Freshness freshness, long startLsn) {
    HeadView known = current();
    return switch (freshness) {
      case CACHED -> known != null ? known : refresh(Source.READ);
      case ON_TAIL -> known != null && !known.atOrBeyondTail(startLsn) ? known : refresh(Source.READ);
      case LATEST -> refresh(Source.READ);
    };
  }

  /**
   * Refreshes the head (one conditional GET; concurrent callers share it) and returns the newest
   * head known afterwards. Waiting callers can be interrupted each on their own.
   */
  HeadView refresh(Source source) {
    CompletableFuture<HeadView> shared;
    boolean leader = false;
    lock.lock();
    try {
      shared = inflight;
      if (shared == null) {
        shared = new CompletableFuture<>();
        inflight = shared;
        leader = true;
      }
    } finally {
      lock.unlock();
    }
    if (leader) {
      load(shared, source);
    }
    try {
      return shared.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ObjlogException("interrupted while waiting for the head of partition "
          + Integer.toUnsignedString(partition), e);
    } catch (ExecutionException e) {
      throw rethrow(e.getCause());
    }
  }

  /**
   * A refresh on {@code executor}, or the one already in flight. The returned future is shared:
   * callers that want their own timeout or cancellation use {@link CompletableFuture#copy()}.
   */
  CompletableFuture<HeadView> refreshAsync(Executor executor, Source source) {
    CompletableFuture<HeadView> shared;
    lock.lock();
    try {
      if (inflight != null) {
        return inflight;
      }
      shared = new CompletableFuture<>();
      inflight = shared;
    } finally {
      lock.unlock();
    }
    CompletableFuture<HeadView> f = shared;
    try {
      executor.execute(() -> load(f, source));
    } catch (RejectedExecutionException e) {
      finish(f);
      f.completeExceptionally(e);
    }
    return f;
  }

  private void load(CompletableFuture<HeadView> f, Source source) {
    try {
      Optional<HeadSnapshot> loaded;
      try {
        loaded = catalog.refreshHead();
      } catch (RuntimeException e) {
        meters.refreshFailed.increment();
        throw e;
      }
      HeadView seen = loaded.map(this::view).orElseGet(() -> HeadView.absent(streamId, partition));
      HeadView before = current();
      if (loaded.isEmpty()) {
        meters.refreshMissing.increment();
      } else if (before != null && before.sameVersion(seen)) {
        meters.refreshUnchanged.increment();
      } else {
        meters.refreshChanged.increment();
      }
      HeadView result = offer(seen, source);
      finish(f);
      f.complete(result);
    } catch (Throwable t) {
      finish(f);
      f.completeExceptionally(t);
    }
  }

  private void finish(CompletableFuture<HeadView> f) {
    lock.lock();
    try {
      if (inflight == f) {
        inflight = null;
      }
    } finally {
      lock.unlock();
    }
  }

  /** A head committed by a writer in this JVM (no request). */
  void offerLocal(HeadSnapshot snapshot) {
    HeadView before = current();
    HeadView after = offer(view(snapshot), Source.LOCAL);
    if (after != before) {
      meters.refreshLocal.increment();
    }
  }

  /**
   * Makes {@code seen} the current head if it is newer, waking waiters; returns the current head
   * afterwards.
   */
  private HeadView offer(HeadView seen, Source source) {
    lock.lock();
    try {
      HeadView known = current;
      if (known == null || isNewer(seen, known)) {
        current = seen;
        version++;
        lastSource = source;
        changed.signalAll();
        return seen;
      }
      return known;
    } finally {
      lock.unlock();
    }
  }

  private static boolean isNewer(HeadView seen, HeadView known) {
    if (known.snapshot() == null) {
      return seen.snapshot() != null;
    }
    if (seen.snapshot() == null) {
      return false;
    }
    return Long.compareUnsigned(seen.generation(), known.generation()) > 0;
  }

  private HeadView view(HeadSnapshot snapshot) {
    return new HeadView(snapshot, SegmentRefs.toPartitionHead(keys, snapshot.head()));
  }

  /**
   * Waits until the version differs from {@code seen}, {@code stop} says so, or (when {@code
   * timed}) the deadline, a reading of the log's {@link Ticker}, passes.
   *
   * @return true if the version changed
   */
  boolean awaitChange(long seen, boolean timed, long deadlineNanos, BooleanSupplier stop)
      throws InterruptedException {
    lock.lockInterruptibly();
    try {
      while (version == seen && !stop.getAsBoolean()) {
        if (!timed) {
          changed.await();
        } else {
          long left = deadlineNanos - ticker.read();
          if (left <= 0) {
            return false;
          }
          changed.awaitNanos(left);
        }
      }
      return version != seen;
    } finally {
      lock.unlock();
    }
  }

  /** Wakes every waiter so it re-checks its stop condition (close, removal). */
  void wakeAll() {
    lock.lock();
    try {
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  static RuntimeException rethrow(@Nullable Throwable t) {
    if (t instanceof CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof RuntimeException r) {
      return r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    return new ObjlogException("head refresh failed", t == null ? new IllegalStateException() : t);
  }

}
