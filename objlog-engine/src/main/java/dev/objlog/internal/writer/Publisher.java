package dev.objlog.internal.writer;

import dev.objlog.CommitIndeterminateException;
import dev.objlog.ObjlogException;
import dev.objlog.PartitionHead;
import dev.objlog.StaleWriterException;
import dev.objlog.WriterClosedException;
import dev.objlog.WriterDeadlineExceededException;
import dev.objlog.WriterOptions;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.internal.LocalCommitBus;
import dev.objlog.internal.catalog.FencedSession;
import dev.objlog.internal.catalog.PublishResult;
import dev.objlog.internal.catalog.SegmentRefs;
import dev.objlog.store.Ticker;
import dev.objlog.store.TransientStoreException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * The writer's last stage: commits ready segments to the catalog strictly in cut order, every
 * ready segment at the front of the queue in one head swap (group commit), and completes their
 * futures with the head that committed them. A single publisher run is active at a time; it runs
 * on the log's store I/O threads (a head swap blocks on the store) and backs off on the scheduler.
 *
 * <p>Retries: the publisher owns the one retry budget of a group commit. Each try is {@link
 * FencedSession#publishOnce}: every page write and the head swap sent once (the store adapter
 * retries a request under its own policy, and nobody else does), an unclear swap reconciled by
 * reading the head back once. A {@link TransientStoreException} from it means definitely not
 * committed: the publisher tries the same group again after {@link RetryBudget#backoffMillis}, on
 * the scheduler (no store thread sleeps), until {@code catalogPublish} has passed since it took the
 * group ({@link WriterDeadlineExceededException}). Everything else it gets is terminal for the
 * writer: a stale fence, a conflict, an integrity failure, or {@code CommitIndeterminateException}
 * (the swap may have landed and the head could not be read back), which the publisher never
 * retries, since a retry could not tell it more than the read-back did.
 *
 * <p>Also keeps the committed head and the signal {@code nextCommit} hands out.
 *
 * <p>Thread-safety: safe for concurrent use. The committed head, the signal and the running flag
 * are guarded by the writer lock; the retry state is confined to the active run.
 */
final class Publisher {
  private final FencedSession session;
  private final PartitionKeys keys;
  private final LocalCommitBus commitBus;
  private final Executor storeIo;
  private final ScheduledExecutorService scheduler;
  private final Ticker ticker;
  private final WriterOptions.Timeouts timeouts;
  private final WriterMeters meters;
  private final Batcher batcher;
  private final ReentrantLock lock;
  private final BiConsumer<ObjlogException, String> fail;

  // Guarded by lock.
  private PartitionHead committed;
  private CompletableFuture<PartitionHead> commitSignal = new CompletableFuture<>();
  /** Once the writer released its resources, the signal is failed for good, not renewed. */
  private boolean retired;
  private boolean running;

  // Confined to the single active run.
  private @Nullable List<Segment> retryGroup;
  /** Ticker reading when the publisher took the current group; its publish deadline counts from here. */
  private long groupTakenNanos;
  private int groupAttempts;

  Publisher(FencedSession session, PartitionKeys keys, LocalCommitBus commitBus, Executor storeIo,
      ScheduledExecutorService scheduler, Ticker ticker, WriterOptions.Timeouts timeouts, WriterMeters meters,
      Batcher batcher, ReentrantLock lock, BiConsumer<ObjlogException, String> fail) {
    this.session = session;
    this.keys = keys;
    this.commitBus = commitBus;
    this.storeIo = storeIo;
    this.scheduler = scheduler;
    this.ticker = ticker;
    this.timeouts = timeouts;
    this.meters = meters;
    this.batcher = batcher;
    this.lock = lock;
    this.fail = fail;
    this.committed = SegmentRefs.toPartitionHead(keys, session.head().head());
  }

  /** Starts a run if none is active and the oldest pending segment is ready. */
  void kick() {
    lock.lock();
    try {
      if (running || batcher.failureLocked() != null || !batcher.firstReadyLocked()) {
        return;
      }
      running = true;
    } finally {
      lock.unlock();
    }
    try {
      storeIo.execute(this::publishLoop);
    } catch (RejectedExecutionException e) {
      fail.accept(new WriterClosedException("writer: the scheduler refused to publish; was the log closed?"),
          "executor");
    }
  }

  /**
   * Continues a run after its backoff on the store I/O threads, not on the scheduler that seals
   * blocks: the retried head swap waits on the store. When the log is closing and the pool
   * refuses, the loop runs here and finds the writer stopping.
   */
  private void resume() {
    try {
      storeIo.execute(this::publishLoop);
    } catch (RejectedExecutionException e) {
      publishLoop();
    }
  }

  /** Every ready segment at the front of the queue, in cut order, marked publishing; or null. */
  private @Nullable List<Segment> takeReadyGroup() {
    lock.lock();
    try {
      List<Segment> group = batcher.takeReadyLocked();
      if (group.isEmpty()) {
        running = false;
        return null;
      }
      return group;
    } finally {
      lock.unlock();
    }
  }

  private void publishLoop() {
    while (true) {
      List<Segment> group = retryGroup;
      retryGroup = null;
      if (group != null) {
        ObjlogException stop = batcher.failureNow();
        if (stop != null) {
          failGroup(group, stop);
          finish();
          return;
        }
      }
      if (group == null) {
        group = takeReadyGroup();
        if (group == null) {
          // A segment may have become ready between the check and the flag being cleared.
          kick();
          return;
        }
        groupTakenNanos = ticker.read();
        groupAttempts = 0;
      }
      List<LeafEntry> entries = new ArrayList<>(group.size());
      for (Segment s : group) {
        entries.add(s.entry);
      }
      groupAttempts++;
      long start = ticker.read();
      PublishResult result;
      try {
        result = session.publishOnce(entries);
      } catch (TransientStoreException e) {
        retryLater(group, e);
        return;
      } catch (RuntimeException e) {
        ObjlogException cause = e instanceof ObjlogException oe ? oe
            : new ObjlogException("writer: publish failed: " + e.getMessage(), e);
        fail.accept(cause, kind(cause));
        failGroup(group, cause);
        finish();
        return;
      }
      onCommitted(group, result, Duration.ofNanos(ticker.read() - start));
    }
  }

  /** Schedules another attempt with the same group, or fails it (and the writer) if out of time. */
  private void retryLater(List<Segment> group, TransientStoreException e) {
    ObjlogException stop = batcher.failureNow();
    if (stop == null) {
      stop = RetryBudget.check(WriterDeadlineExceededException.Deadline.CATALOG_PUBLISH,
          timeouts.catalogPublish(), groupTakenNanos, ticker.read(), elapsed -> "writer: committing "
              + group.size() + " segment(s) from LSN " + Long.toUnsignedString(group.get(0).baseLsn)
              + " kept failing for " + elapsed + ", past the catalog publish timeout of "
              + timeouts.catalogPublish() + "; they were not committed", e);
      if (stop != null) {
        fail.accept(stop, "publish");
      }
    }
    if (stop != null) {
      failGroup(group, stop);
      finish();
      return;
    }
    retryGroup = group;
    try {
      scheduler.schedule(this::resume, RetryBudget.backoffMillis(groupAttempts), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException rejected) {
      ObjlogException cause = new WriterClosedException(
          "writer: the scheduler refused a publish retry; was the log closed?", e);
      retryGroup = null;
      fail.accept(cause, "executor");
      failGroup(group, cause);
      finish();
    }
  }

  private void finish() {
    lock.lock();
    try {
      running = false;
    } finally {
      lock.unlock();
    }
  }

  private static String kind(ObjlogException e) {
    if (e instanceof StaleWriterException) {
      return "stale_writer";
    }
    if (e instanceof CommitIndeterminateException) {
      return "commit_indeterminate";
    }
    return "publish";
  }

  private void onCommitted(List<Segment> group, PublishResult result, Duration publishTime) {
    PartitionHead head = SegmentRefs.toPartitionHead(keys, result.head());
    CompletableFuture<PartitionHead> signal;
    lock.lock();
    try {
      batcher.removeLocked(group, Segment.Stage.COMMITTED);
      adoptLocked(head);
      signal = commitSignal;
      if (batcher.failureLocked() == null && !retired) {
        commitSignal = new CompletableFuture<>();
      }
      batcher.afterCommitLocked(group, ticker.read());
    } finally {
      lock.unlock();
    }
    meters.commit(publishTime, group.size(), Duration.ofNanos(ticker.read() - group.get(0).firstAcceptedNanos));
    commitBus.published(session.catalog().headKey(), session.head());
    for (Segment s : group) {
      s.complete(head);
    }
    signal.complete(head);
  }

  private void failGroup(List<Segment> group, ObjlogException cause) {
    lock.lock();
    try {
      batcher.removeLocked(group, Segment.Stage.ABANDONED);
    } finally {
      lock.unlock();
    }
    for (Segment s : group) {
      s.completeExceptionally(cause);
    }
  }

  // ------------------------------------------------------------------ committed head and signal

  PartitionHead committedLocked() {
    return committed;
  }

  /** Takes {@code head} as the committed head if it is newer (a commit or a retention). */
  void adoptLocked(PartitionHead head) {
    if (Long.compareUnsigned(head.generation(), committed.generation()) > 0) {
      committed = head;
    }
  }

  CompletableFuture<PartitionHead> signalLocked() {
    return commitSignal;
  }

  /** The writer released its resources: the signal it fails is not renewed again. */
  void retireLocked() {
    retired = true;
  }
}
