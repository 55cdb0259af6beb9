package dev.objlog.spring.listener;

import dev.objlog.LsnExpiredException;
import dev.objlog.PartitionHead;
import dev.objlog.read.CheckpointAheadException;
import dev.objlog.read.CheckpointMismatchException;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.read.Freshness;
import dev.objlog.read.ReadRecord;
import dev.objlog.read.ReadResult;
import dev.objlog.read.Tailer;
import dev.objlog.read.Watch;
import dev.objlog.read.WatchClosedException;
import dev.objlog.spring.listener.ObjlogListenerContainer.PartitionState;
import dev.objlog.spring.listener.ObjlogListenerContainer.PartitionStatus;
import dev.objlog.spring.listener.checkpoint.CheckpointConflictException;
import dev.objlog.spring.listener.checkpoint.CheckpointKey;
import dev.objlog.spring.listener.checkpoint.StoredCheckpoint;
import io.micrometer.observation.Observation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * One partition of an {@link ObjlogListenerContainer}, on its own thread: starts at the stored
 * checkpoint or the start position, tails the partition, invokes the listener (handing failures
 * to the error handler, which retries as it sees fit), saves checkpoints as the {@link CheckpointMode} says, and stops
 * on its own when it fails or, in a group, when the partition is no longer its.
 *
 * <p>Thread-safety: runs on its own thread; the container and the group member read its state and
 * stop it from others, through the volatile fields and the container's monitor.
 */
final class PartitionConsumer implements Runnable {
  /** The container's: what a partition logs is part of what its listener logs. */
  private static final Log logger = LogFactory.getLog(ObjlogListenerContainer.class);

  private final ObjlogListenerContainer container;
  private final ObjlogListenerContainer.Settings settings;
  /** The container's monitor: stopping, pausing and resuming it wakes waiting partitions. */
  private final Object lock;
  /** With a concurrency: the lane this partition invokes while holding. */
  private final @Nullable ReentrantLock lane;
  final int partition;
  private final Watch watch;
  private final CheckpointKey key;
  private final StartPositionResolver start;
  volatile @Nullable Thread thread;
  volatile PartitionState state = PartitionState.STARTING;
  private volatile @Nullable Tailer tailer;
  private volatile @Nullable String failure;
  /** The LSN after the last record processed or recovered. */
  private volatile long processed;
  /** Saves the checkpoints: here, or in the background (objlog.listener.sync-checkpoints=false). */
  private final CheckpointSaver saver;
  private volatile long headNextLsn;
  private volatile long oldestWaitingTimestampMs = -1;
  private int unsavedCount;
  private boolean acknowledged;
  private long lastSaveNanos = System.nanoTime();
  /** When the last record arrived (or the partition started), and the last Idle event was published. */
  private long lastRecordNanos = System.nanoTime();
  private long lastIdleEventNanos = lastRecordNanos;
  /** Group listeners: the partition runs under a lease, until {@code deadlineNanos}. */
  private final boolean leased;
  /** Group listeners: the ticker reading the lease deadline falls at. */
  volatile long deadlineNanos;
  /** Group listeners: the lease was lost; no save from here on. */
  volatile boolean revoked;
  /** False once the group member stops this partition. */
  private volatile boolean active = true;
  private volatile boolean saveOnStop = true;
  /** Set when this consumer stopped because it no longer owns the partition. */
  volatile boolean gaveUp;

  PartitionConsumer(ObjlogListenerContainer container, int partition, Watch watch, boolean leased,
      long deadlineNanos) {
    this.container = container;
    this.settings = container.settings();
    this.lock = container.lock();
    this.lane = container.laneOf(partition);
    this.partition = partition;
    this.watch = watch;
    this.leased = leased;
    this.deadlineNanos = deadlineNanos;
    this.key = CheckpointKey.of(container.getCheckpointOwner(), container.getStreamName(), partition);
    this.start = new StartPositionResolver(settings, partition, key);
    this.saver = new CheckpointSaver(settings.checkpoints(), key, settings.stream().streamId(), partition,
        settings.clock(), container.checkpointExecutor(), this::leaseValid);
  }

  ObjlogListenerContainer container() {
    return container;
  }

  PartitionStatus status() {
    long lag = lagRecords();
    return new PartitionStatus(partition, state, processed, saver.saved(), knownHeadNextLsn(), lag,
        saver.lastCheckpoint(), failure);
  }

  /** The newest head this reader knows (no store request), or what the last read saw. */
  long knownHeadNextLsn() {
    long known = headNextLsn;
    try {
      known = Math.max(known, settings.reader().partition(partition).head(Freshness.CACHED).nextLsn());
    } catch (RuntimeException e) {
      // the reader is closed or the head was never loaded: keep what the last read saw
    }
    return known;
  }

  long lagRecords() {
    long lag = knownHeadNextLsn() - processed;
    return lag > 0 ? lag : 0;
  }

  /**
   * Seconds since the timestamp of the oldest record committed but not yet processed; 0 when
   * caught up. Known from the record in hand, or fetched while the partition is paused.
   */
  double lagAgeSeconds() {
    long ts = oldestWaitingTimestampMs;
    if (ts < 0 || lagRecords() == 0) {
      return 0;
    }
    return Math.max(0, settings.clock().millis() - ts) / 1000.0;
  }

  /** Whether this consumer may go on: the container runs, the partition is still its, the lease valid. */
  boolean live() {
    return container.isRunning() && active && leaseValid();
  }

  boolean leaseValid() {
    // Elapsed time on the ticker: a wall clock stepped back must not keep a lease past its deadline.
    return !leased || (!revoked && settings.ticker().read() - deadlineNanos < 0);
  }

  /** The group member takes the partition away; {@code save}: the lease is valid, save first. */
  void deactivate(boolean save) {
    saveOnStop = save;
    active = false;
    synchronized (lock) {
      lock.notifyAll();
    }
    closeTailer();
  }

  void closeTailer() {
    Tailer t = tailer;
    if (t != null) {
      t.close();
    }
  }

  @Override
  public void run() {
    try {
      run0();
    } finally {
      saver.awaitIdle(); // the thread ends (and a group member may release the lease) only after the last save
    }
  }

  private void run0() {
    try {
      long start = initialPosition();
      processed = start;
      Tailer t = watch.tail(partition, start, 0);
      tailer = t;
      if (!live()) {
        t.close();
      }
      state = PartitionState.RUNNING;
      loop();
      stopCleanly();
    } catch (WatchClosedException e) {
      if (live()) {
        fail("the watch closed while running", e);
      } else {
        stopCleanly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopCleanly();
    } catch (PartitionStopped e) {
      // already failed
    } catch (CheckpointConflictException | LeaseDeadlinePassed e) {
      if (settings.group() == null) {
        fail("unexpected failure: " + e, e);
      } else {
        // Another member owns the partition now: hand it back, never overwrite its checkpoint.
        logger.warn("Listener " + key + " gives the partition up: " + e.getMessage());
        gaveUp = true;
        state = PartitionState.STOPPED;
        closeTailer();
      }
    } catch (Throwable e) {
      if (!live() && e.getCause() instanceof WatchClosedException) {
        stopCleanly();
      } else {
        fail("unexpected failure: " + e, e);
      }
    }
  }

  private void stopCleanly() {
    try {
      if (!leaseValid()) {
        gaveUp = true;
        logger.warn("Listener " + key + " stops at its lease deadline without saving; records after LSN "
            + saver.saved() + " go to the next holder");
      } else if (settings.mode() != CheckpointMode.MANUAL && saveOnStop) {
        save();
      }
    } catch (RuntimeException e) {
      logger.warn("Listener " + key + ": could not save the checkpoint on stop; records after LSN "
          + saver.saved() + " will be redelivered", e);
    } finally {
      if (state != PartitionState.FAILED) {
        state = PartitionState.STOPPED;
      }
      closeTailer();
    }
  }

  private void fail(String why, @Nullable Throwable cause) {
    failure = why;
    state = PartitionState.FAILED;
    closeTailer();
    logger.error("Listener " + key + " stopped the partition: " + why, cause);
    container.publish(new ObjlogListenerContainerEvent.PartitionFailed(container, partition, why, cause));
  }

  private long initialPosition() {
    Optional<StoredCheckpoint> stored = settings.checkpoints().load(key);
    if (stored.isEmpty()) {
      long p = startPosition(settings.startPosition(), "no checkpoint");
      logger.info("Listener " + key + " has no checkpoint; starting at LSN " + Long.toUnsignedString(p)
          + " (" + settings.startPosition() + ")");
      return p;
    }
    StoredCheckpoint checkpoint = stored.get();
    saver.reset(stored);
    try {
      CursorCheckpoint c = checkpoint.checkpoint();
      start.checkResumable(c);
      headNextLsn = settings.reader().head(partition).nextLsn();
      return c.nextLsn();
    } catch (CheckpointMismatchException e) {
      return onCheckpointError("mismatch", settings.onMismatch(), e);
    } catch (LsnExpiredException e) {
      return onCheckpointError("expired", settings.onExpired(), e);
    } catch (CheckpointAheadException e) {
      return onCheckpointError("ahead", settings.onAhead(), e);
    }
  }

  private long onCheckpointError(String kind, CheckpointErrorOutcome outcome, Exception e) {
    if (outcome == CheckpointErrorOutcome.FAIL) {
      fail("checkpoint " + kind + " (objlog.listener.checkpoint-errors." + kind + "=fail): " + e.getMessage(), e);
      throw new PartitionStopped();
    }
    long p = startPosition(StartPositionResolver.restartPosition(outcome), "checkpoint " + kind);
    logger.warn("Listener " + key + ": checkpoint " + kind + " (" + e.getMessage() + "); restarting at "
        + outcome.name().toLowerCase() + " LSN " + Long.toUnsignedString(p) + " as configured");
    processed = p;
    save();
    return p;
  }

  /** @param why why the partition starts afresh, for messages */
  private long startPosition(StartPosition position, String why) {
    PartitionHead head = settings.reader().head(partition);
    headNextLsn = head.nextLsn();
    return start.resolve(position, head, why);
  }

  private void loop() throws InterruptedException {
    while (live()) {
      saver.check(); // a background save's failure stops the partition as a synchronous one would
      if (container.isPauseRequested()) {
        parkWhilePaused();
        continue;
      }
      Tailer t = Objects.requireNonNull(tailer);
      ReadResult result;
      try {
        result = t.next(ObjlogListenerContainer.IDLE_CHECK);
      } catch (LsnExpiredException e) {
        long p = onCheckpointError("expired", settings.onExpired(), e);
        t.close();
        tailer = watch.tail(partition, p, 0);
        continue;
      }
      headNextLsn = Math.max(headNextLsn, result.head().nextLsn());
      if (result.isEmpty()) {
        maybeSaveOnTime();
        saver.settle();
        maybePublishIdle();
        continue;
      }
      lastRecordNanos = System.nanoTime();
      lastIdleEventNanos = lastRecordNanos;
      List<ReadRecord> records = result.records();
      oldestWaitingTimestampMs = records.get(0).timestampMs();
      if (settings.invoker().isBatch()) {
        if (!deliver(records)) {
          return;
        }
      } else {
        for (int i = 0; i < records.size(); i++) {
          if (!live()) {
            return;
          }
          oldestWaitingTimestampMs = records.get(i).timestampMs();
          if (!deliver(List.of(records.get(i)))) {
            return;
          }
        }
      }
      oldestWaitingTimestampMs = -1;
      if (settings.mode() == CheckpointMode.BATCH) {
        requestSave();
      }
      maybeSaveOnTime();
      if (Long.compareUnsigned(result.nextLsn(), result.head().nextLsn()) >= 0) {
        saver.settle(); // caught up: the last position is stored (and a failed save seen) before waiting
      }
    }
  }

  /** With an idle event interval: publishes Idle once per interval without records. */
  private void maybePublishIdle() {
    java.time.Duration interval = settings.idleEventInterval();
    if (interval == null) {
      return;
    }
    long now = System.nanoTime();
    if (now - lastIdleEventNanos >= interval.toNanos()) {
      lastIdleEventNanos = now;
      container.publish(new ObjlogListenerContainerEvent.Idle(container, partition,
          java.time.Duration.ofNanos(now - lastRecordNanos)));
    }
  }

  private void parkWhilePaused() throws InterruptedException {
    while (true) {
      noteOldestUnprocessed(); // outside the lock: it may read the store
      synchronized (lock) {
        if (!container.isPauseRequested() || !container.isRunning() || !active) {
          break;
        }
        state = PartitionState.PAUSED;
        lock.wait(ObjlogListenerContainer.IDLE_CHECK.toMillis());
      }
    }
    if (state == PartitionState.PAUSED) {
      state = PartitionState.RUNNING;
    }
  }

  /**
   * While no record is in hand but some wait (records committed during a pause), learns the
   * oldest one's timestamp so that the age gauge does not read 0 for a listener that is behind.
   */
  private void noteOldestUnprocessed() {
    if (oldestWaitingTimestampMs >= 0 || lagRecords() == 0) {
      return;
    }
    try {
      settings.reader().partition(partition).fetch(processed)
          .ifPresent(r -> oldestWaitingTimestampMs = r.timestampMs());
    } catch (RuntimeException e) {
      logger.debug("Listener " + key + ": could not read the oldest waiting record for the age gauge", e);
    }
  }

  /**
   * Invokes, and on failure lets the error handler retry and decide; false when the partition
   * stopped (failed or asked to stop).
   */
  private boolean deliver(List<ReadRecord> batch) throws InterruptedException {
    List<ReadRecord> remaining = batch;
    while (true) {
      if (!live()) {
        return false;
      }
      PartitionDelivery.Attempt first = attempt(remaining);
      if (first.stopped()) {
        return false;
      }
      if (first.failure() == null) {
        return true;
      }
      PartitionDelivery delivery = new PartitionDelivery(this, remaining, first.failure());
      boolean handled = settings.errorHandler().handle(delivery);
      if (delivery.succeeded()) {
        return true;
      }
      if (delivery.isStopping() || !live()) {
        return false;
      }
      List<ReadRecord> failed = delivery.records();
      if (!handled) {
        save0IfNotManual();
        fail("the listener failed on LSN " + Long.toUnsignedString(failed.get(0).lsn()) + " after "
            + delivery.attempts() + " attempts and was not recovered: " + delivery.cause(), null);
        return false;
      }
      settings.metrics().recovered(container.getListenerId(), container.getStreamName(), failed.size());
      processed = failed.get(failed.size() - 1).lsn() + 1;
      save(); // the records are disposed of: never redeliver them
      remaining = delivery.remaining();
      if (failed.size() == remaining.size()) {
        return true;
      }
      remaining = remaining.subList(failed.size(), remaining.size()); // the rest of the batch, afresh
    }
  }

  /** One invocation on {@code records}, with its metrics and checkpoint bookkeeping. */
  PartitionDelivery.Attempt attempt(List<ReadRecord> records) {
    long startNanos = System.nanoTime();
    try {
      Acknowledgment ack = null;
      acknowledged = false;
      if (settings.mode() == CheckpointMode.MANUAL) {
        long after = records.get(records.size() - 1).lsn() + 1;
        ack = () -> {
          acknowledged = true;
          processed = after;
          save();
        };
      }
      RecordMessage message = new RecordMessage(container.getStreamName(), records, settings.invoker().isBatch(), ack);
      // The lane first, then any transaction: a thread waiting for its lane holds no connection.
      if (lane != null) {
        lane.lock();
      }
      try {
        if (!live()) {
          return PartitionDelivery.Attempt.STOPPED; // stopped, or the lease deadline passed, while waiting for the lane
        }
        if (settings.transaction() == null) {
          invokeObserved(message);
        } else {
          invokeAndSaveInTransaction(message, settings.transaction());
        }
      } finally {
        if (lane != null) {
          lane.unlock();
        }
      }
    } catch (Exception e) {
      if (e instanceof CheckpointConflictException || e instanceof LeaseDeadlinePassed) {
        throw (RuntimeException) e; // an acknowledgment found the partition owned elsewhere
      }
      if (e instanceof FailedInTransaction f) {
        throw (RuntimeException) f.failure(); // the save's: stops the partition, as without transactions
      }
      if (acknowledged || settings.transaction() != null) {
        resync();
      }
      settings.metrics().failed(container.getListenerId(), container.getStreamName(), System.nanoTime() - startNanos);
      return new PartitionDelivery.Attempt(false, e);
    }
    settings.metrics().processed(container.getListenerId(), container.getStreamName(), records.size(), System.nanoTime() - startNanos);
    if (settings.transaction() == null) {
      advance(records.get(records.size() - 1), records.size());
    }
    return PartitionDelivery.Attempt.PROCESSED;
  }

  private void invokeObserved(RecordMessage message) throws Exception {
    if (settings.observationRegistry().isNoop()) {
      settings.invoker().invoke(message);
      return;
    }
    Observation observation = ObjlogListenerObservation.LISTENER_OBSERVATION.observation(
        settings.observationConvention(), DefaultObjlogListenerObservationConvention.INSTANCE,
        () -> new ObjlogListenerObservationContext(container.getListenerId(), container.getStreamName(), partition, message.records()),
        settings.observationRegistry());
    observation.start();
    try (Observation.Scope scope = observation.openScope()) {
      settings.invoker().invoke(message);
    } catch (Exception | Error e) {
      observation.error(e);
      throw e;
    } finally {
      observation.stop();
    }
  }

  /**
   * RECORD mode with a transaction manager: the method and the checkpoint save share one
   * transaction, so a JDBC checkpoint on the same DataSource commits or rolls back with the
   * method's own writes. On any failure the caller resyncs from the stored checkpoint, since a
   * save that happened in the transaction may have been rolled back.
   */
  private void invokeAndSaveInTransaction(RecordMessage message, TransactionTemplate transaction)
      throws Exception {
    long before = processed;
    List<ReadRecord> records = message.records();
    try {
      transaction.executeWithoutResult(status -> {
        try {
          invokeObserved(message);
        } catch (Exception e) {
          throw new FailedInTransaction(e, false);
        }
        try {
          advance(records.get(records.size() - 1), records.size());
        } catch (RuntimeException e) {
          throw new FailedInTransaction(e, true);
        }
      });
    } catch (FailedInTransaction e) {
      processed = before;
      if (!e.inSave) {
        throw e.failure();
      }
      // Not the method's failure, so not for the error handler: a conflict means another
      // instance moved the checkpoint, and the partition stops as it does without transactions.
      resync();
      throw e;
    } catch (RuntimeException | Error e) {
      processed = before;
      throw e;
    }
  }

  /** Before stopping a failed partition: keep what was processed before the failing record. */
  private void save0IfNotManual() {
    if (settings.mode() != CheckpointMode.MANUAL) {
      try {
        save();
      } catch (RuntimeException e) {
        logger.warn("Listener " + key + ": could not save the checkpoint", e);
      }
    }
  }

  void advance(ReadRecord last, int count) {
    if (settings.mode() == CheckpointMode.MANUAL) {
      return;
    }
    processed = last.lsn() + 1;
    unsavedCount += count;
    if (settings.mode() == CheckpointMode.RECORD
        || (settings.mode() == CheckpointMode.COUNT && unsavedCount >= settings.ackCount())) {
      requestSave();
    }
  }

  private void maybeSaveOnTime() {
    if (settings.mode() == CheckpointMode.TIME
        && System.nanoTime() - lastSaveNanos >= settings.ackTime().toNanos()) {
      requestSave();
    }
  }

  /**
   * After a method that acknowledged then threw: its transaction may have rolled the save back,
   * so learn the stored position and version again.
   */
  private void resync() {
    saver.reset(settings.checkpoints().load(key));
    if (saver.saved() >= 0) {
      processed = saver.saved();
    }
  }

  /** Saves the processed position, on this thread, if it moved (after any save in the background). */
  void save() {
    saver.saveNow(processed);
    savedRequested();
  }

  /** The container's own checkpoints (record, batch, count, time): in the background when configured. */
  private void requestSave() {
    saver.offer(processed);
    savedRequested();
  }

  private void savedRequested() {
    unsavedCount = 0;
    lastSaveNanos = System.nanoTime();
  }
}
