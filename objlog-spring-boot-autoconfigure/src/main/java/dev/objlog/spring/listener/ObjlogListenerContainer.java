package dev.objlog.spring.listener;

import dev.objlog.coordination.PartitionSharing;
import dev.objlog.read.LogReader;
import dev.objlog.read.Tailer;
import dev.objlog.read.Watch;
import dev.objlog.spring.coordination.LoggingReporter;
import dev.objlog.spring.core.ObjlogStream;
import dev.objlog.spring.core.PartitionSet;
import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import dev.objlog.store.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.ReentrantLock;
import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.transaction.support.TransactionTemplate;

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
 * <p>Publishes {@link ObjlogListenerContainerEvent}s (started, stopped, idle, partitions assigned
 * and revoked, partition failed) when its factory has an event publisher.
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
      ListenerMethod invoker,
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
      @Nullable SnapshotStart snapshotStart,
      /** Where events go; null: none. */
      @Nullable ApplicationEventPublisher events,
      /** Idle events after this long without records; null: none. */
      @Nullable Duration idleEventInterval,
      /** How retries wait; null: on the container's monitor, which a stop notifies. */
      @Nullable Sleeper sleeper,
      /**
       * Whether the container's own checkpoints (record, batch, count, time) are saved on the
       * partition's thread; false: in the background, latest position wins. Always true in MANUAL
       * mode and with a transaction (the save belongs to the invocation's transaction).
       */
      boolean syncCheckpoints,
      /** Background saves run here; null: a thread pool of the container's own while it runs. */
      @Nullable Executor checkpointExecutor) {}

  /** Waits out a back-off interval instead of the container's monitor (tests count intervals with it). */
  @FunctionalInterface
  interface Sleeper {
    void sleep(long millis) throws InterruptedException;
  }

  private final Settings settings;
  private final Object lock = new Object();
  /**
   * Held through the whole of a start or a stop, so that one runs after the other: a start during a
   * stop's release of its group member would otherwise build a member the stop then forgets.
   */
  private final ReentrantLock lifecycle = new ReentrantLock();
  private final Map<Integer, PartitionConsumer> consumers = new java.util.concurrent.ConcurrentSkipListMap<>();
  /** Partitions a PartitionsAssigned event announced and no PartitionsRevoked took back yet. */
  private final java.util.Set<Integer> announced = new java.util.concurrent.ConcurrentSkipListSet<>();
  private volatile boolean expectedRunning;
  private volatile boolean running;
  private volatile boolean pauseRequested;
  private @Nullable Watch watch;
  private volatile @Nullable PartitionSharing member;
  private volatile @Nullable ScheduledExecutorService leaseTicks;
  /** Background checkpoint saves (sync-checkpoints=false): the settings' executor or one owned from start to stop. */
  private volatile @Nullable Executor checkpointExecutor;
  private @Nullable ExecutorService ownedCheckpointExecutor;
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
    lifecycle.lock();
    try {
      startUnderLifecycle();
    } finally {
      lifecycle.unlock();
    }
  }

  private void startUnderLifecycle() {
    List<Integer> assigned;
    synchronized (lock) {
      expectedRunning = true;
      if (running) {
        return;
      }
      startLocked();
      // Without a group every partition is this container's; under the lock, so a stop revokes them.
      assigned = settings.group() != null ? List.of()
          : settings.partitions().stream().boxed().filter(announced::add).toList();
    }
    publish(new ObjlogListenerContainerEvent.Started(this));
    if (!assigned.isEmpty()) {
      publish(new ObjlogListenerContainerEvent.PartitionsAssigned(this, assigned));
    }
  }

  /** Opens the watch and starts the partitions (or the group member); the caller holds the lock. */
  private void startLocked() {
    List<Integer> partitions = settings.partitions().stream().boxed().toList();
    Watch w = settings.reader().watch(partitions);
    watch = w;
    running = true;
    consumers.clear();
    checkpointExecutor = backgroundSaves() ? startCheckpointExecutor() : null;
    PartitionSharing.Settings group = settings.group();
    if (group != null) {
      // The member slots are keyed like the assigned partitions, as the previous release keyed them.
      PartitionSharing m = new PartitionSharing(group, getCheckpointOwner(), getStreamName(), partitions, partitions,
          settings.ticker(), new MemberPartitions(), LoggingReporter.INSTANCE);
      ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor(daemonThreads("leases"));
      member = m;
      leaseTicks = ticks;
      m.schedule(ticks, Duration.ZERO);
      return;
    }
    for (int p : partitions) {
      startConsumer(p, false, 0);
    }
  }

  /** Starts a partition's thread; the caller holds the lock. */
  private void startConsumer(int partition, boolean leased, long deadlineNanos) {
    PartitionConsumer consumer = new PartitionConsumer(this, partition, Objects.requireNonNull(watch), leased, deadlineNanos);
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
    lifecycle.lock();
    try {
      stopUnderLifecycle();
    } finally {
      lifecycle.unlock();
    }
  }

  private void stopUnderLifecycle() {
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
      // Partition threads saved their last position before they ended; one that outlived the
      // shutdown timeout finds the pool shut and saves on its own thread.
      if (ownedCheckpointExecutor != null && !running) {
        ownedCheckpointExecutor.shutdown();
        ownedCheckpointExecutor = null;
      }
    }
    revoked(List.copyOf(announced));
    publish(new ObjlogListenerContainerEvent.Stopped(this));
  }

  /** Whether checkpoints go to a background saver: asked for, and neither MANUAL nor transactional. */
  private boolean backgroundSaves() {
    return !settings.syncCheckpoints() && settings.mode() != CheckpointMode.MANUAL && settings.transaction() == null;
  }

  private Executor startCheckpointExecutor() {
    Executor given = settings.checkpointExecutor();
    if (given != null) {
      return given;
    }
    if (ownedCheckpointExecutor == null) {
      ownedCheckpointExecutor = Executors.newCachedThreadPool(daemonThreads("checkpoints"));
    }
    return ownedCheckpointExecutor;
  }

  /** Daemon threads named {@code objlog-<listener id>-<role>}, for the container's own executors. */
  private ThreadFactory daemonThreads(String role) {
    String threadName = "objlog-" + getListenerId() + "-" + role;
    return r -> {
      Thread t = new Thread(r, threadName);
      t.setDaemon(true);
      return t;
    };
  }

  /** Where partitions of this run save in the background; null: on their own threads. */
  @Nullable Executor checkpointExecutor() {
    return checkpointExecutor;
  }

  /** Announces partitions this container no longer consumes (those announced before). */
  void revoked(List<Integer> partitions) {
    List<Integer> gone = partitions.stream().filter(announced::remove).toList();
    if (!gone.isEmpty()) {
      publish(new ObjlogListenerContainerEvent.PartitionsRevoked(this, gone));
    }
  }

  /** Publishes to the application; a failing event listener is logged, never thrown. */
  void publish(ObjlogListenerContainerEvent event) {
    ApplicationEventPublisher events = settings.events();
    if (events == null) {
      return;
    }
    try {
      events.publishEvent(event);
    } catch (RuntimeException e) {
      logger.warn("Listener " + getListenerId() + ": an event listener failed on " + event.getClass().getSimpleName(), e);
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

  Settings settings() {
    return settings;
  }

  /** The monitor lifecycle changes notify; partition threads wait on it while paused or backing off. */
  /** Whether a start or stop waits for another to finish (tests force that interleaving). */
  boolean lifecycleContended() {
    return lifecycle.hasQueuedThreads();
  }

  Object lock() {
    return lock;
  }

  /** With a concurrency: the lane {@code partition} invokes while holding; null without one. */
  @Nullable ReentrantLock laneOf(int partition) {
    return lanes == null ? null : lanes[Integer.remainderUnsigned(partition, lanes.length)];
  }

  @Override
  public String toString() {
    return "ObjlogListenerContainer[" + getListenerId() + " on " + getStreamName() + " " + settings.partitions() + "]";
  }

  /** Drives the partition consumers for the group's {@link PartitionSharing}. */
  private final class MemberPartitions implements PartitionSharing.Partitions {
    @Override
    public void start(int partition, long deadlineNanos) {
      boolean fresh;
      synchronized (lock) {
        if (!running) {
          return;
        }
        startConsumer(partition, true, deadlineNanos);
        fresh = announced.add(partition); // under the lock: a stop after this revokes it
      }
      if (fresh) {
        publish(new ObjlogListenerContainerEvent.PartitionsAssigned(ObjlogListenerContainer.this, List.of(partition)));
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
      revoked(List.of(partition));
    }

    @Override
    public void revoke(int partition) {
      PartitionConsumer c = consumers.get(partition);
      if (c != null) {
        c.revoked = true; // no save from here on: another member may own the partition
        c.deactivate(false);
      }
      revoked(List.of(partition));
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
