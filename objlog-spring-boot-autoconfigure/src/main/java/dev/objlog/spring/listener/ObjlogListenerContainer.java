package dev.objlog.spring.listener;

import dev.objlog.LsnExpiredException;
import dev.objlog.coordination.PartitionSharing;
import dev.objlog.PartitionHead;
import dev.objlog.read.CheckpointAheadException;
import dev.objlog.read.CheckpointMismatchException;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.read.Freshness;
import dev.objlog.read.LogReader;
import dev.objlog.read.ReadRecord;
import dev.objlog.read.ReadResult;
import dev.objlog.read.Tailer;
import dev.objlog.read.Watch;
import dev.objlog.read.WatchClosedException;
import dev.objlog.spring.coordination.LoggingReporter;
import dev.objlog.spring.core.ObjlogStream;
import dev.objlog.spring.core.PartitionSet;
import dev.objlog.spring.listener.checkpoint.CheckpointConflictException;
import dev.objlog.spring.listener.checkpoint.CheckpointKey;
import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import dev.objlog.spring.listener.checkpoint.CheckpointVersion;
import dev.objlog.spring.listener.checkpoint.StoredCheckpoint;
import dev.objlog.store.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.locks.ReentrantLock;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.backoff.BackOffExecution;

/**
 * Runs one listener: a {@link Watch} on the assigned partitions of its stream and, per partition,
 * a thread with a {@link Tailer} that starts at the stored checkpoint (or the start position when
 * none is stored), invokes the listener method and saves checkpoints as the {@link CheckpointMode}
 * says. Created by an {@link ObjlogListenerContainerFactory}, managed by the {@link
 * ObjlogListenerEndpointRegistry}.
 *
 * <p>State: {@link #start()} and {@link #stop()} set what the container is asked to be ({@link
 * #isExpectedRunning()}); a partition whose listener keeps failing (and is not recovered), whose
 * checkpoint cannot be used with outcome FAIL, or whose checkpoint save conflicts, stops on its own
 * and reports {@link PartitionState#FAILED}; the container is then not {@link
 * #isInExpectedState() in the expected state}. On an orderly stop each partition saves its pending
 * checkpoint (except in MANUAL mode).
 *
 * <p>Delivery is at least once: a record is checkpointed only after the method returned for it
 * (or it was recovered), so a crash redelivers records processed since the last save. In RECORD
 * mode with a transaction manager, each invocation and its checkpoint save share one transaction
 * (effectively once with the JDBC repository on the same DataSource).
 *
 * <p>With a group, a {@link PartitionSharing} decides which assigned partitions run here: a partition
 * runs only while this instance holds its lease, stops (without saving) at its lease deadline when
 * renewals fail, and a checkpoint conflict hands the partition back instead of failing it.
 *
 * <p>With a {@link ObjlogListenerEndpoint#getConcurrency() concurrency} N, partition threads
 * invoke the method while holding lane {@code partition mod N}: at most N invocations at once.
 *
 * <p>Thread-safety: lifecycle methods may be called from any thread; they are serialised.
 */
public class ObjlogListenerContainer {
  private static final Log logger = LogFactory.getLog(ObjlogListenerContainer.class);

  /** How long a tailer waits before it rechecks pause, TIME checkpoints and lag. */
  static final Duration IDLE_CHECK = Duration.ofMillis(500);

  /** A partition consumer's state. */
  public enum PartitionState {
    STARTING, RUNNING, PAUSED, STOPPED, FAILED
  }

  /** A snapshot of one partition consumer. */
  public record PartitionStatus(int partition, PartitionState state, long position, long checkpointed,
      long headNextLsn, long lagRecords, @Nullable Instant lastCheckpoint, @Nullable String failure) {}

  /**
   * A group listener's view of a partition's lease, as of its last lease tick.
   *
   * @param owner the instance id of the holder; null when nobody holds it (or not known yet)
   * @param until when the lease expires unless renewed
   * @param heldByThisInstance whether this container holds it
   */
  public record PartitionLease(int partition, @Nullable String owner, @Nullable Instant until,
      boolean heldByThisInstance) {}

  /** Everything a container needs, resolved by the factory. */
  record Settings(
      ObjlogListenerEndpoint endpoint,
      ObjlogStream stream,
      PartitionSet partitions,
      LogReader reader,
      CheckpointRepository checkpoints,
      ListenerMethodInvoker invoker,
      ListenerErrorHandler errorHandler,
      StartPosition startPosition,
      CheckpointMode mode,
      int ackCount,
      Duration ackTime,
      CheckpointErrorOutcome onMismatch,
      CheckpointErrorOutcome onExpired,
      CheckpointErrorOutcome onAhead,
      Duration shutdownTimeout,
      Clock clock,
      Ticker ticker,
      ListenerMetrics metrics,
      ObservationRegistry observationRegistry,
      @Nullable ObjlogListenerObservationConvention observationConvention,
      PartitionSharing.@Nullable Settings group,
      @Nullable TransactionTemplate transaction,
      /** Set when the start position or a checkpoint error outcome is a snapshot. */
      @Nullable SnapshotStart snapshotStart) {}

  private final Settings settings;
  private final Object lock = new Object();
  private final Map<Integer, PartitionConsumer> consumers = new java.util.concurrent.ConcurrentSkipListMap<>();
  private volatile boolean expectedRunning;
  private volatile boolean running;
  private volatile boolean pauseRequested;
  private @Nullable Watch watch;
  private volatile @Nullable PartitionSharing member;
  private volatile @Nullable ScheduledExecutorService leaseTicks;
  /** With a concurrency: one lock per lane; a partition invokes while holding its lane's. */
  private final @Nullable ReentrantLock @Nullable [] lanes;

  ObjlogListenerContainer(Settings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
    Integer concurrency = settings.endpoint().getConcurrency();
    this.lanes = concurrency == null ? null : new ReentrantLock[concurrency];
    for (int i = 0; lanes != null && i < lanes.length; i++) {
      lanes[i] = new ReentrantLock();
    }
  }

  public String getListenerId() {
    return settings.endpoint().getId();
  }

  public String getStreamName() {
    return settings.stream().name();
  }

  /** The group if set, otherwise the listener id. */
  public String getCheckpointOwner() {
    return settings.endpoint().getCheckpointOwner();
  }

  public CheckpointMode getCheckpointMode() {
    return settings.mode();
  }

  public PartitionSet getAssignedPartitions() {
    return settings.partitions();
  }

  public boolean isAutoStartup() {
    return settings.endpoint().isAutoStartup();
  }

  /** Starts a thread per assigned partition. Does nothing when already running. */
  public void start() {
    synchronized (lock) {
      expectedRunning = true;
      if (running) {
        return;
      }
      List<Integer> partitions = settings.partitions().stream().boxed().toList();
      Watch w = settings.reader().watch(partitions);
      watch = w;
      running = true;
      consumers.clear();
      PartitionSharing.Settings group = settings.group();
      if (group != null) {
        // The member slots are keyed like the assigned partitions, as the previous release keyed them.
        PartitionSharing m = new PartitionSharing(group, getCheckpointOwner(), getStreamName(), partitions, partitions,
            settings.ticker(), new MemberPartitions(), LoggingReporter.INSTANCE);
        String threadName = "objlog-" + getListenerId() + "-leases";
        ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor(r -> {
          Thread t = new Thread(r, threadName);
          t.setDaemon(true);
          return t;
        });
        member = m;
        leaseTicks = ticks;
        m.schedule(ticks, Duration.ZERO);
        return;
      }
      for (int p : partitions) {
        startConsumer(p, false, 0);
      }
    }
  }

  /** Starts a partition's thread; the caller holds the lock. */
  private void startConsumer(int partition, boolean leased, long deadlineNanos) {
    PartitionConsumer consumer = new PartitionConsumer(partition, Objects.requireNonNull(watch), leased, deadlineNanos);
    consumers.put(partition, consumer);
    Thread thread = new Thread(consumer, "objlog-" + getListenerId() + "-" + partition);
    thread.setDaemon(true);
    consumer.thread = thread;
    settings.metrics().registerPartition(this, partition);
    thread.start();
  }

  /**
   * Stops every partition: the record in hand completes, pending checkpoints are saved (not in
   * MANUAL mode), and this waits up to the shutdown timeout for the threads.
   */
  public void stop() {
    List<Thread> threads = new ArrayList<>();
    synchronized (lock) {
      expectedRunning = false;
      if (!running) {
        return;
      }
      running = false;
      lock.notifyAll();
    }
    PartitionSharing m = member;
    if (m != null) {
      m.close(); // no lease tick starts or stops partitions from here on
      ScheduledExecutorService ticks = leaseTicks;
      if (ticks != null) {
        ticks.shutdown();
      }
    }
    synchronized (lock) {
      for (PartitionConsumer c : consumers.values()) {
        if (c.thread != null && c.thread != Thread.currentThread()) {
          threads.add(c.thread);
        }
        c.closeTailer();
      }
    }
    long deadline = System.nanoTime() + settings.shutdownTimeout().toNanos();
    for (Thread t : threads) {
      try {
        t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    if (m != null) {
      m.releaseAll();
      member = null;
    }
    synchronized (lock) {
      if (watch != null && !running) {
        watch.close();
        watch = null;
      }
    }
  }

  /** Asks every partition to pause after the batch in hand. */
  public void pause() {
    synchronized (lock) {
      pauseRequested = true;
    }
  }

  public void resume() {
    synchronized (lock) {
      pauseRequested = false;
      lock.notifyAll();
    }
  }

  public boolean isRunning() {
    return running;
  }

  /** Whether the container was asked to run (started and not stopped since). */
  public boolean isExpectedRunning() {
    return expectedRunning;
  }

  public boolean isPauseRequested() {
    return pauseRequested;
  }

  /** Whether a pause was requested and every live partition thread has parked. */
  public boolean isPaused() {
    if (!pauseRequested || !running) {
      return false;
    }
    synchronized (lock) {
      return consumers.values().stream()
          .allMatch(c -> c.state == PartitionState.PAUSED || c.state == PartitionState.FAILED
              || c.state == PartitionState.STOPPED);
    }
  }

  /**
   * Whether the container is what it was asked to be: running with no failed partition, or
   * stopped. False when a partition died.
   */
  public boolean isInExpectedState() {
    if (expectedRunning != running) {
      return false;
    }
    synchronized (lock) {
      return consumers.values().stream().noneMatch(c -> c.state == PartitionState.FAILED);
    }
  }

  /** RUNNING, PAUSED, STOPPED or FAILED (a partition failed). */
  public String getState() {
    if (!isInExpectedState()) {
      return "FAILED";
    }
    if (!running) {
      return "STOPPED";
    }
    return isPaused() ? "PAUSED" : "RUNNING";
  }

  /** Records committed to {@code partition} that this listener has not processed (0 when unknown). */
  public long lagRecords(int partition) {
    PartitionConsumer c = consumers.get(partition);
    return c == null ? 0 : c.lagRecords();
  }

  /**
   * Seconds since the timestamp of the oldest record committed to {@code partition} and not yet
   * processed; 0 when caught up.
   */
  public double lagAgeSeconds(int partition) {
    PartitionConsumer c = consumers.get(partition);
    return c == null ? 0 : c.lagAgeSeconds();
  }

  public List<PartitionStatus> getPartitionStatuses() {
    synchronized (lock) {
      return consumers.values().stream().map(PartitionConsumer::status).toList();
    }
  }

  /** The consumer group, or null when the listener has none (it then consumes every assigned partition). */
  public @Nullable String getGroup() {
    return settings.group() == null ? null : getCheckpointOwner();
  }

  /** This instance's id in its group (objlog.listener.instance-id), or null without a group. */
  public @Nullable String getInstanceId() {
    PartitionSharing.Settings group = settings.group();
    return group == null ? null : group.owner();
  }

  /** Group listeners: what the last lease tick saw of each assigned partition's lease; empty otherwise. */
  public List<PartitionLease> getPartitionLeases() {
    PartitionSharing m = member;
    return m == null ? List.of() : m.seen().stream()
        .map(s -> new PartitionLease(s.partition(), s.lease() == null ? null : s.lease().owner(),
            s.lease() == null ? null : s.lease().until(), s.heldHere()))
        .toList();
  }

  /** Group listeners: the live members the last lease tick counted (this one included); 0 otherwise. */
  public int getGroupMembers() {
    PartitionSharing m = member;
    return m == null ? 0 : m.members();
  }

  @Override
  public String toString() {
    return "ObjlogListenerContainer[" + getListenerId() + " on " + getStreamName() + " " + settings.partitions() + "]";
  }

  /** One partition's thread. */
  final class PartitionConsumer implements Runnable {
    final int partition;
    private final Watch watch;
    private final CheckpointKey key;
    private final StartPositionResolver start;
    volatile @Nullable Thread thread;
    volatile PartitionState state = PartitionState.STARTING;
    private volatile @Nullable Tailer tailer;
    private volatile @Nullable String failure;
    private CheckpointVersion version = CheckpointVersion.ABSENT;
    /** The LSN after the last record processed or recovered. */
    private volatile long processed;
    /** The LSN the last saved checkpoint holds. */
    private volatile long saved = -1;
    private volatile long headNextLsn;
    private volatile @Nullable Instant lastCheckpoint;
    private volatile long oldestWaitingTimestampMs = -1;
    private int unsavedCount;
    private boolean acknowledged;
    private long lastSaveNanos = System.nanoTime();
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

    PartitionConsumer(int partition, Watch watch, boolean leased, long deadlineNanos) {
      this.partition = partition;
      this.watch = watch;
      this.leased = leased;
      this.deadlineNanos = deadlineNanos;
      this.key = CheckpointKey.of(getCheckpointOwner(), getStreamName(), partition);
      this.start = new StartPositionResolver(settings, partition, key);
    }

    PartitionStatus status() {
      long lag = lagRecords();
      return new PartitionStatus(partition, state, processed, saved, knownHeadNextLsn(), lag, lastCheckpoint, failure);
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
      return running && active && leaseValid();
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
              + saved + " go to the next holder");
        } else if (settings.mode() != CheckpointMode.MANUAL && saveOnStop) {
          save();
        }
      } catch (RuntimeException e) {
        logger.warn("Listener " + key + ": could not save the checkpoint on stop; records after LSN "
            + saved + " will be redelivered", e);
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
      version = checkpoint.version();
      saved = checkpoint.checkpoint().nextLsn();
      lastCheckpoint = checkpoint.updatedAt();
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
        if (pauseRequested) {
          parkWhilePaused();
          continue;
        }
        Tailer t = Objects.requireNonNull(tailer);
        ReadResult result;
        try {
          result = t.next(IDLE_CHECK);
        } catch (LsnExpiredException e) {
          long p = onCheckpointError("expired", settings.onExpired(), e);
          t.close();
          tailer = watch.tail(partition, p, 0);
          continue;
        }
        headNextLsn = Math.max(headNextLsn, result.head().nextLsn());
        if (result.isEmpty()) {
          maybeSaveOnTime();
          continue;
        }
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
          save();
        }
        maybeSaveOnTime();
      }
    }

    private void parkWhilePaused() throws InterruptedException {
      while (true) {
        noteOldestUnprocessed(); // outside the lock: it may read the store
        synchronized (lock) {
          if (!pauseRequested || !running || !active) {
            break;
          }
          state = PartitionState.PAUSED;
          lock.wait(IDLE_CHECK.toMillis());
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

    /** Invokes with retries; false when the partition stopped (failed or asked to stop). */
    private boolean deliver(List<ReadRecord> batch) throws InterruptedException {
      List<ReadRecord> remaining = batch;
      BackOffExecution backOff = null;
      int attempts = 0;
      while (true) {
        if (!live()) {
          return false;
        }
        attempts++;
        long startNanos = System.nanoTime();
        try {
          Acknowledgment ack = null;
          acknowledged = false;
          if (settings.mode() == CheckpointMode.MANUAL) {
            long after = remaining.get(remaining.size() - 1).lsn() + 1;
            ack = () -> {
              acknowledged = true;
              processed = after;
              save();
            };
          }
          ListenerMethodInvoker.Call call = new ListenerMethodInvoker.Call(getStreamName(), remaining, ack);
          // The lane first, then any transaction: a thread waiting for its lane holds no connection.
          ReentrantLock lane = lanes == null ? null : lanes[Integer.remainderUnsigned(partition, lanes.length)];
          if (lane != null) {
            lane.lock();
          }
          try {
            if (!live()) {
              return false; // stopped, or the lease deadline passed, while waiting for the lane
            }
            if (settings.transaction() == null) {
              invokeObserved(call);
            } else {
              invokeAndSaveInTransaction(call, settings.transaction());
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
          settings.metrics().failed(getListenerId(), getStreamName(), System.nanoTime() - startNanos);
          if (e instanceof BatchListenerFailedException b && settings.invoker().isBatch()) {
            int index = Math.min(b.index(), remaining.size() - 1);
            if (index > 0) {
              advance(remaining.get(index - 1), index);
              remaining = remaining.subList(index, remaining.size());
              backOff = null;
              attempts = 1;
            }
          }
          if (backOff == null) {
            backOff = settings.errorHandler().backOff().start();
          }
          long wait = backOff.nextBackOff();
          if (wait != BackOffExecution.STOP) {
            logger.debug("Listener " + key + " failed (attempt " + attempts + "); retrying in " + wait + " ms", e);
            sleep(wait);
            continue;
          }
          boolean pointed = e instanceof BatchListenerFailedException && settings.invoker().isBatch();
          List<ReadRecord> failed = pointed ? List.of(remaining.get(0)) : remaining;
          Exception cause = pointed && e.getCause() instanceof Exception c ? c : e;
          ListenerFailure f = new ListenerFailure(getListenerId(), getStreamName(), partition, failed, cause, attempts);
          if (!settings.errorHandler().handleExhausted(f)) {
            save0IfNotManual();
            fail("the listener failed on LSN " + Long.toUnsignedString(failed.get(0).lsn()) + " after " + attempts
                + " attempts and was not recovered: " + cause, null);
            return false;
          }
          settings.metrics().recovered(getListenerId(), getStreamName(), failed.size());
          processed = failed.get(failed.size() - 1).lsn() + 1;
          save(); // the records are disposed of: never redeliver them
          if (failed.size() == remaining.size()) {
            return true;
          }
          remaining = remaining.subList(failed.size(), remaining.size());
          backOff = null;
          attempts = 0;
          continue;
        }
        settings.metrics().processed(getListenerId(), getStreamName(), remaining.size(), System.nanoTime() - startNanos);
        if (settings.transaction() == null) {
          advance(remaining.get(remaining.size() - 1), remaining.size());
        }
        return true;
      }
    }

    private void invokeObserved(ListenerMethodInvoker.Call call) throws Exception {
      if (settings.observationRegistry().isNoop()) {
        settings.invoker().invoke(call);
        return;
      }
      Observation observation = ObjlogListenerObservation.LISTENER_OBSERVATION.observation(
          settings.observationConvention(), DefaultObjlogListenerObservationConvention.INSTANCE,
          () -> new ObjlogListenerObservationContext(getListenerId(), getStreamName(), partition, call.records()),
          settings.observationRegistry());
      observation.start();
      try (Observation.Scope scope = observation.openScope()) {
        settings.invoker().invoke(call);
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
    private void invokeAndSaveInTransaction(ListenerMethodInvoker.Call call, TransactionTemplate transaction)
        throws Exception {
      long before = processed;
      List<ReadRecord> records = call.records();
      try {
        transaction.executeWithoutResult(status -> {
          try {
            invokeObserved(call);
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

    private void advance(ReadRecord last, int count) {
      if (settings.mode() == CheckpointMode.MANUAL) {
        return;
      }
      processed = last.lsn() + 1;
      unsavedCount += count;
      if (settings.mode() == CheckpointMode.RECORD
          || (settings.mode() == CheckpointMode.COUNT && unsavedCount >= settings.ackCount())) {
        save();
      }
    }

    private void maybeSaveOnTime() {
      if (settings.mode() == CheckpointMode.TIME
          && System.nanoTime() - lastSaveNanos >= settings.ackTime().toNanos()) {
        save();
      }
    }

    /**
     * After a method that acknowledged then threw: its transaction may have rolled the save back,
     * so learn the stored position and version again.
     */
    private void resync() {
      Optional<StoredCheckpoint> stored = settings.checkpoints().load(key);
      if (stored.isPresent()) {
        version = stored.get().version();
        saved = stored.get().checkpoint().nextLsn();
        lastCheckpoint = stored.get().updatedAt();
      } else {
        version = CheckpointVersion.ABSENT;
        saved = -1;
      }
      if (saved >= 0) {
        processed = saved;
      }
    }

    /** Saves the processed position if it moved. */
    void save() {
      long position = processed;
      if (position == saved) {
        return;
      }
      if (!leaseValid()) {
        throw new LeaseDeadlinePassed(key);
      }
      version = settings.checkpoints().save(key,
          CursorCheckpoint.of(settings.stream().streamId(), partition, position), version);
      saved = position;
      unsavedCount = 0;
      lastSaveNanos = System.nanoTime();
      lastCheckpoint = settings.clock().instant();
    }

    private void sleep(long millis) throws InterruptedException {
      long deadline = System.nanoTime() + millis * 1_000_000;
      synchronized (lock) {
        long left;
        while (live() && (left = deadline - System.nanoTime()) > 0) {
          lock.wait(Math.max(1, left / 1_000_000));
        }
      }
    }
  }

  /** Drives the partition consumers for the group's {@link PartitionSharing}. */
  private final class MemberPartitions implements PartitionSharing.Partitions {
    @Override
    public void start(int partition, long deadlineNanos) {
      synchronized (lock) {
        if (running) {
          startConsumer(partition, true, deadlineNanos);
        }
      }
    }

    @Override
    public void extend(int partition, long deadlineNanos) {
      PartitionConsumer c = consumers.get(partition);
      if (c != null) {
        c.deadlineNanos = deadlineNanos;
      }
    }

    @Override
    public void requestStop(int partition, boolean saveCheckpoint) {
      PartitionConsumer c = consumers.get(partition);
      if (c != null) {
        c.deactivate(saveCheckpoint);
      }
    }

    @Override
    public void revoke(int partition) {
      PartitionConsumer c = consumers.get(partition);
      if (c != null) {
        c.revoked = true; // no save from here on: another member may own the partition
        c.deactivate(false);
      }
    }

    @Override
    public boolean running(int partition) {
      PartitionConsumer c = consumers.get(partition);
      if (c == null) {
        return false;
      }
      Thread t = c.thread;
      if (t != null && t.isAlive()) {
        return true;
      }
      consumers.remove(partition, c);
      return false;
    }

    @Override
    public void awaitEnded(int partition, long millis) throws InterruptedException {
      PartitionConsumer c = consumers.get(partition);
      Thread t = c == null ? null : c.thread;
      if (t != null && t != Thread.currentThread()) {
        t.join(Math.max(1, millis));
      }
    }

    @Override
    public boolean gaveUp(int partition) {
      PartitionConsumer c = consumers.get(partition);
      return c != null && c.gaveUp;
    }
  }
}
