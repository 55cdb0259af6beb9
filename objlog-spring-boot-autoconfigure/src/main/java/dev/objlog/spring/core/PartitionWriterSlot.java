package dev.objlog.spring.core;

import static dev.objlog.spring.core.CommitFailures.indeterminate;
import static dev.objlog.spring.core.CommitFailures.isFenceLoss;
import static dev.objlog.spring.core.CommitFailures.notCommitted;
import static dev.objlog.spring.core.CommitFailures.notTakenOver;
import static dev.objlog.spring.core.CommitFailures.ownIndeterminate;
import static dev.objlog.spring.core.CommitFailures.toSettle;
import static dev.objlog.spring.core.CommitFailures.unsettled;
import static dev.objlog.spring.core.CommitFailures.unwrap;

import dev.objlog.AppendResult;
import dev.objlog.CommitIndeterminateException;
import dev.objlog.CommitStatus;
import dev.objlog.CommitUndecidableException;
import dev.objlog.Header;
import dev.objlog.InvalidArgumentException;
import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.ObjlogException;
import dev.objlog.PartitionHead;
import dev.objlog.PartitionWriter;
import dev.objlog.SegmentRef;
import dev.objlog.StaleWriterException;
import dev.objlog.WriterClosedException;
import dev.objlog.WriterState;
import dev.objlog.store.Ticker;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * One partition an {@link ObjlogTemplate} writes: its writer, opened on the first send, the sends
 * whose futures are open, and the settling of those whose commit ended indeterminate (see the
 * template's class comment). Not to be confused with a member slot of partition sharing.
 *
 * <p>Thread-safety: safe for concurrent use; sends and settlings are serialised by the slot's lock,
 * and futures complete outside it.
 */
final class PartitionWriterSlot {
  /** The template's: what slots log is part of what the template logs. */
  private static final Log logger = LogFactory.getLog(ObjlogTemplate.class);

  private final ObjlogTemplate template;
  private final ObjlogStreams streams;
  private final Clock clock;
  /** Elapsed time, on which the writer lease's deadline is measured. */
  private final Ticker ticker;
  private final StoreActivity activity;
  /** Settles indeterminate commits off the writers' threads, which must never wait for a slot. */
  private final ExecutorService settler;
  private final ObjlogStream stream;
  private final int partition;
  private final StreamWriterSettings settings;
  /**
   * Whether this partition is written only under a writer lease, and whether it is held now: until
   * the ticker reading {@code leaseDeadlineNanos}, past which the lease may have expired.
   */
  private final boolean leased;
  private volatile boolean holdsLease;
  private volatile long leaseDeadlineNanos;
  private final ReentrantLock lock = new ReentrantLock();
  private final AtomicLong pending = new AtomicLong();
  private final Set<CompletableFuture<SendResult>> outstanding = ConcurrentHashMap.newKeySet();
  /** Sends whose future has not completed, to settle them if their writer ends indeterminate. */
  private final Set<Pending> unsettled = ConcurrentHashMap.newKeySet();
  /** Set when a send's commit ended indeterminate, until a settling finds nothing left to do. */
  private volatile boolean needsSettling;
  private volatile @Nullable PartitionWriter writer;
  private long lastTimestamp = Long.MIN_VALUE; // guarded by lock
  /**
   * Commits to watch and futures to complete once the lock is released, so that no callback on a
   * send's future runs under it: one that sends, flushes or waits would re-enter or deadlock a
   * settling. Guarded by lock.
   */
  private final List<Runnable> watches = new ArrayList<>();
  private final List<Runnable> completions = new ArrayList<>();
  private boolean settling; // guarded by lock
  private long sends; // guarded by lock: numbers sends in the order they were appended
  private volatile int opens;
  private volatile @Nullable Instant lastCommit;
  private volatile @Nullable Instant pendingSince;

  PartitionWriterSlot(ObjlogTemplate template, ObjlogStream stream, int partition, StreamWriterSettings settings) {
    this.template = template;
    this.streams = template.streams();
    this.clock = template.clock();
    this.ticker = template.ticker();
    this.activity = template.activity();
    this.settler = template.settler();
    this.stream = stream;
    this.partition = partition;
    this.settings = settings;
    this.leased = settings.lease() != null;
  }

  /**
   * Holds the lease (again). A writer left from an earlier lease is dropped: it was closed when
   * that lease was given up, or fenced out by the holder in between, and neither may stop the
   * partition from being written now that it is ours.
   */
  void leaseGranted() {
    lock.lock();
    try {
      PartitionWriter w = writer;
      if (w != null && (w.failure().isPresent() || w.state().closed())) {
        w.abort();
        writer = null;
      }
      holdsLease = true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The lease is surely held until ticker reading {@code deadlineNanos}: before {@link
   * #leaseGranted}, and after each renewal. Takes no lock (called on the lease thread).
   */
  void leaseUntil(long deadlineNanos) {
    leaseDeadlineNanos = deadlineNanos;
  }

  /**
   * The lease is being given up: sends are refused from now on, before the writer closes on the
   * hand-over thread ({@link #leaseGivenUp}). Takes no lock: the lease thread must not wait for a
   * send in progress, which still appends to the writer that close then waits for.
   */
  void leaseEnding() {
    holdsLease = false;
  }

  /** The lease is given up: no send is appended from here on, and the writer closes. */
  void leaseGivenUp() {
    holdsLease = false; // before closing: a send that sees it under the slot's lock fails
    close();
  }

  /** Whether the writer lease is held and its deadline has not passed. */
  private boolean holdsLeaseNow() {
    return holdsLease && ticker.read() - leaseDeadlineNanos < 0;
  }

  void checkLease() {
    if (leased && !holdsLeaseNow()) {
      throw PartitionNotWritableException.notLeased(stream.name(), partition,
          PartitionSet.of(template.heldWriterPartitions(stream.name()), stream.partitions()));
    }
  }

  CompletableFuture<SendResult> send(List<Header> headers, byte[] value) {
    long timestamp;
    AppendResult appended;
    Pending sent;
    lock.lock();
    try {
      if (template.isClosed()) {
        return CompletableFuture.failedFuture(
            new WriterClosedException("the ObjlogTemplate is closed (the application is shutting down)"));
      }
      checkLease(); // under the lock: giving a lease up closes the writer under it too
      timestamp = Math.max(clock.millis(), lastTimestamp);
      LogRecord record = LogRecord.of(timestamp, headers, value); // rejects bad records before any I/O
      PartitionWriter current = writerForSend(); // an opening may raise lastTimestamp to the committed one
      if (lastTimestamp > timestamp) {
        timestamp = lastTimestamp;
        record = LogRecord.of(timestamp, headers, value);
      }
      try {
        appended = current.append(record);
      } catch (WriterClosedException e) {
        // The writer failed between our check and the append: decide again once.
        current = writerForSend();
        timestamp = Math.max(timestamp, lastTimestamp);
        record = LogRecord.of(timestamp, headers, value);
        appended = current.append(record);
      }
      lastTimestamp = timestamp;
      sent = new Pending(headers, value, timestamp, appended, current);
      track(sent);
    } catch (InvalidArgumentException e) {
      throw e; // the record itself was rejected (too large, too many headers): a caller error
    } catch (ObjlogException e) {
      activity.failure(e);
      return CompletableFuture.failedFuture(e);
    } finally {
      unlock();
    }
    watch(sent, appended);
    return sent.result;
  }

  /** Counts a send as pending until its future completes, however it completes. Holds the lock. */
  private void track(Pending p) {
    if (pending.getAndIncrement() == 0) {
      pendingSince = clock.instant();
    }
    p.seq = sends++;
    unsettled.add(p);
    outstanding.add(p.result);
    p.result.whenComplete((r, failure) -> {
      unsettled.remove(p);
      outstanding.remove(p.result);
      if (pending.decrementAndGet() == 0) {
        pendingSince = null;
      }
      if (failure == null) {
        activity.success();
        lastCommit = clock.instant();
      } else {
        activity.failure(unwrap(failure));
      }
    });
  }

  /**
   * Completes the send when {@code appended} commits, fails it when the writer failed otherwise,
   * and has it settled when the commit ended indeterminate. Never takes the slot's lock: it runs
   * on writer threads, which a send holding the lock may be waiting for.
   */
  private void watch(Pending p, AppendResult appended) {
    appended.committed().whenComplete((head, failure) -> {
      if (p.appended != appended || p.decided || p.result.isDone()) {
        return; // settled already, or sent again by a settling
      }
      if (failure == null) {
        p.succeed(appended.lsn(), head);
        return;
      }
      CommitIndeterminateException indeterminate = toSettle(failure);
      if (indeterminate != null) {
        needsSettling = true;
        settleLater(p, indeterminate);
      } else {
        p.result.completeExceptionally(unwrap(failure));
      }
    });
  }

  private void settleLater(Pending p, CommitIndeterminateException cause) {
    try {
      settler.execute(() -> {
        // Not under the lock: those commits end on writer threads, which never wait for it.
        for (Pending q : unsettled) {
          if (!q.decided && q.writer.failure().isPresent()) {
            q.appended.committed().handle((r, e) -> null).join(); // settle a failed writer's sends together
          }
        }
        lock.lock();
        try {
          settle(!template.isClosed());
        } finally {
          unlock();
        }
      });
    } catch (RejectedExecutionException e) {
      p.result.completeExceptionally(
          unsettled(stream, partition, cause, "the template closed before it could settle it", e));
    }
  }

  /**
   * Settles every send whose own commit ended indeterminate (PROTOCOLS.md §5.2; docs/USAGE.md,
   * "Retrying without duplicates"), whatever its writer failed with first: takes the partition
   * over with a new writer when it may ({@code mayReopen}, the template open and, with leases, the
   * lease held), asks the log which landed, decides those and appends the others again in send
   * order. Holds the lock, so no later send is appended before them; the futures complete after
   * it is released. Not re-entrant: a send decided once is never decided again.
   */
  private void settle(boolean mayReopen) {
    if (settling) {
      return;
    }
    settling = true;
    try {
      while (true) {
        List<Pending> group = new ArrayList<>();
        CommitIndeterminateException cause = null;
        for (Pending p : unsettled) {
          CommitIndeterminateException c = p.decided ? null : ownIndeterminate(p.appended);
          if (c != null) {
            group.add(p);
            cause = cause == null ? c : cause;
          }
        }
        if (cause == null) {
          needsSettling = false;
          return;
        }
        group.sort(Comparator.comparingLong((Pending p) -> p.seq));
        settle(group, cause, mayReopen && (!leased || holdsLeaseNow()));
      }
    } finally {
      settling = false;
    }
  }

  private void settle(List<Pending> group, CommitIndeterminateException cause, boolean reopen) {
    Objlog log = streams.log(stream.name());
    PartitionWriter fresh = null;
    PartitionWriter current = writer;
    boolean working = current != null && current.failure().isEmpty() && !current.state().closed();
    if (reopen && !working && isFenceLoss(current.failure().orElse(null)) && !settings.reopenAfterFenceLoss()) {
      reopen = false; // another writer owns the partition, and this instance is not to take it back
    }
    if (reopen) {
      if (current != null && !working) {
        current.abort();
        writer = null;
      }
      try {
        fresh = writer != null ? writer : openWriter();
      } catch (ObjlogException e) {
        failAll(group, unsettled(stream, partition, cause, "re-opening the writer to settle it failed", e));
        return;
      }
    } else if (template.isClosed()) {
      failAll(group, unsettled(stream, partition, cause, "the template is closing", null));
      return;
    }
    List<CommitStatus> statuses;
    PartitionHead head;
    try {
      statuses = log.commitStatus(group.stream().map(p -> p.appended).toList());
      head = fresh != null ? fresh.state().committed() : log.head(partition).orElseThrow();
    } catch (CommitUndecidableException e) {
      failAll(group, e);
      return;
    } catch (ObjlogException e) {
      failAll(group, unsettled(stream, partition, cause, "asking which records landed failed", e));
      return;
    }
    int again = 0;
    for (int i = 0; i < group.size(); i++) {
      Pending p = group.get(i);
      long lsn = p.appended.lsn();
      if (statuses.get(i) == CommitStatus.COMMITTED) {
        decide(p, () -> p.succeed(lsn, head));
      } else if (fresh == null) {
        fail(p, notTakenOver(stream, partition));
      } else if (p.resends >= ObjlogTemplate.MAX_RESENDS) {
        fail(p, notCommitted(stream, partition, "its commit ended indeterminate " + (ObjlogTemplate.MAX_RESENDS + 1)
            + " times, and the template gave up sending it again", cause));
      } else if (resend(p, fresh)) {
        again++;
      }
    }
    if (again > 0) {
      fresh.flushAsync(); // the re-sent records must not wait for a batch age that may be unset
    }
    logger.warn("Settled " + group.size() + " send(s) to partition " + partition + " of stream '" + stream.name()
        + "' after an indeterminate commit (" + cause.getMessage() + "): " + (group.size() - again)
        + " decided, " + again + " sent again");
  }

  /** Appends the send's record again through {@code fresh}; false (and the send failed) if refused. */
  private boolean resend(Pending p, PartitionWriter fresh) {
    long timestamp = Math.max(p.timestamp, lastTimestamp);
    AppendResult appended;
    try {
      appended = fresh.append(LogRecord.of(timestamp, p.headers, p.value));
    } catch (ObjlogException e) {
      fail(p, e); // not accepted, so not in the log
      return false;
    }
    lastTimestamp = timestamp;
    p.timestamp = timestamp;
    p.resends++;
    p.writer = fresh;
    p.appended = appended;
    watches.add(() -> watch(p, appended)); // an ended commit completes the future at once
    return true;
  }

  private void failAll(List<Pending> group, ObjlogException failure) {
    for (Pending p : group) {
      fail(p, failure);
    }
  }

  private void fail(Pending p, Throwable failure) {
    decide(p, () -> p.result.completeExceptionally(failure));
  }

  /** Marks the send decided now and completes its future once the lock is released. */
  private void decide(Pending p, Runnable completion) {
    p.decided = true;
    completions.add(completion);
  }

  /**
   * Releases the lock; the outermost release then watches the re-sent records' commits and
   * completes the decided futures, each on the settler (a callback may wait for another).
   */
  private void unlock() {
    List<Runnable> watch = List.of();
    List<Runnable> complete = List.of();
    if (lock.getHoldCount() == 1) {
      watch = List.copyOf(watches);
      complete = List.copyOf(completions);
      watches.clear();
      completions.clear();
    }
    lock.unlock();
    watch.forEach(Runnable::run);
    for (Runnable r : complete) {
      try {
        settler.execute(r);
      } catch (RejectedExecutionException e) {
        r.run(); // the template closed: complete it here
      }
    }
  }

  /** Waits until the futures of sends made so far have completed, however they completed. */
  void awaitOutstanding() {
    awaitOutstanding(Long.MAX_VALUE);
  }

  /** As {@link #awaitOutstanding()}, for at most {@code nanos}; false if some are still open. */
  private boolean awaitOutstanding(long nanos) {
    CompletableFuture<?>[] snapshot = outstanding.toArray(new CompletableFuture<?>[0]);
    try {
      CompletableFuture.allOf(snapshot).handle((r, e) -> null).get(nanos, TimeUnit.NANOSECONDS);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // ExecutionException cannot happen: handle() swallowed failures
    }
    return false;
  }

  /**
   * The writer to append to: the open one, or a newly opened one, after settling the sends of
   * a writer that ended indeterminate. Holds the lock.
   */
  private PartitionWriter writerForSend() {
    if (needsSettling || (writer != null && indeterminate(writer.failure().orElse(null)) != null)) {
      settle(true);
    }
    PartitionWriter current = writer;
    if (current != null) {
      Optional<ObjlogException> failure = current.failure();
      if (failure.isEmpty() && !current.state().closed()) {
        return current;
      }
      ObjlogException cause = failure.orElse(null);
      if (isFenceLoss(cause) && !settings.reopenAfterFenceLoss()) {
        throw new StaleWriterException("partition " + partition + " of stream '" + stream.name()
            + "' was taken over by another writer, so this instance no longer writes it. Stop the other"
            + " writer or give each instance its own objlog.streams." + stream.name() + ".writer.partitions;"
            + " objlog.streams." + stream.name() + ".writer.reopen-after-fence-loss=true takes it back on the"
            + " next send. Cause: " + cause.getMessage());
      }
      logger.warn("Re-opening the writer of partition " + partition + " of stream '" + stream.name()
          + "' after " + (cause == null ? "it closed" : cause.toString()));
      current.abort();
      writer = null;
    }
    return openWriter();
  }

  /** Opens the partition's writer (a takeover) and makes it the slot's. Holds the lock. */
  private PartitionWriter openWriter() {
    PartitionWriter opened;
    try {
      opened = streams.log(stream.name()).openWriter(partition, settings.newWriterOptions());
    } catch (ObjlogException e) {
      activity.failure(e);
      throw e;
    }
    activity.success();
    SegmentRef last = opened.state().committed().lastSegment();
    if (last != null) {
      lastTimestamp = Math.max(lastTimestamp, last.maxTimestampMs());
    }
    opens++;
    writer = opened;
    if (logger.isDebugEnabled()) {
      logger.debug("Opened the writer of partition " + partition + " of stream '" + stream.name() + "' at "
          + opened.state().committed());
    }
    return opened;
  }

  /** A send not settled yet, with what it takes to append its record again. */
  private final class Pending {
    final List<Header> headers;
    final byte[] value;
    final CompletableFuture<SendResult> result = new CompletableFuture<>();
    // Written under the slot's lock; read by the writers' callbacks.
    volatile long timestamp;
    volatile AppendResult appended;
    volatile PartitionWriter writer;
    /** Set under the lock once a settling decided the send; its future completes after unlocking. */
    volatile boolean decided;
    int resends;
    long seq;

    Pending(List<Header> headers, byte[] value, long timestamp, AppendResult appended, PartitionWriter writer) {
      this.headers = headers;
      this.value = value;
      this.timestamp = timestamp;
      this.appended = appended;
      this.writer = writer;
    }

    void succeed(long lsn, PartitionHead head) {
      result.complete(new SendResult(stream.name(), partition, lsn, timestamp, head));
    }
  }

  @Nullable PartitionWriter writer() {
    return writer;
  }

  LocalWriterStatus status() {
    PartitionWriter w = writer;
    LocalWriterStatus.State state;
    WriterState snapshot = null;
    String failure = null;
    WriterState current = w == null ? null : w.state();
    if (leased && !holdsLeaseNow() && (current == null || current.closed())) {
      state = LocalWriterStatus.State.NOT_WRITTEN_HERE;
      snapshot = current; // closed when the lease was given up
    } else if (w == null) {
      state = LocalWriterStatus.State.NOT_OPENED;
    } else {
      snapshot = current; // a lease given up whose writer is still closing shows the writer's state
      ObjlogException f = snapshot.failure();
      if (f != null) {
        state = isFenceLoss(f) ? LocalWriterStatus.State.FENCED : LocalWriterStatus.State.FAILED;
        failure = f.toString();
      } else if (snapshot.closed()) {
        state = LocalWriterStatus.State.CLOSED;
      } else {
        state = LocalWriterStatus.State.OPEN;
      }
    }
    return new LocalWriterStatus(stream.name(), partition, state, snapshot, lastCommit, pending.get(),
        pendingSince, opens, failure);
  }

  void close() {
    lock.lock();
    try {
      PartitionWriter w = writer;
      if (w == null) {
        return;
      }
      try {
        if (w.failure().isPresent()) {
          w.abort();
        } else {
          w.close();
        }
      } catch (ObjlogException e) {
        logger.warn("Closing the writer of partition " + partition + " of stream '" + stream.name() + "' failed", e);
      }
      // Asks once, without taking the partition over; what cannot be decided fails indeterminate.
      settle(false);
    } finally {
      unlock();
    }
    // Not under the lock: a settling in the background, or a future's callback, may need it.
    if (!awaitOutstanding(settings.newWriterOptions().timeouts().catalogPublish().toNanos())) {
      for (Pending p : unsettled) {
        p.result.completeExceptionally(new CommitIndeterminateException("the record sent to partition " + partition
            + " of stream '" + stream.name() + "' may or may not be in the log: it was not settled when its"
            + " writer closed"));
      }
    }
  }
}
