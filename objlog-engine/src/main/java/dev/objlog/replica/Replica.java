package dev.objlog.replica;

import dev.objlog.InvalidArgumentException;
import dev.objlog.LsnExpiredException;
import dev.objlog.Objlog;
import dev.objlog.ObjlogException;
import dev.objlog.PartitionHead;
import dev.objlog.read.CheckpointMismatchException;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.read.Freshness;
import dev.objlog.read.LogReader;
import dev.objlog.read.ReadResult;
import dev.objlog.read.Tailer;
import dev.objlog.read.Watch;
import dev.objlog.read.WatchClosedException;
import dev.objlog.store.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * Keeps an application's state in step with a log without Spring: one loop per partition tails
 * from the partition's saved cursor, hands each batch to the {@link ReplicaApplier}, and saves the
 * cursor in the {@link CursorStore} after the batch is applied.
 *
 * <p>Where a partition starts: after its saved cursor. With no cursor it starts at LSN 0 if the
 * log still holds it, and from the newest snapshot otherwise; with a cursor below the retention
 * floor (and whenever tailing falls below it) it restores the newest snapshot ({@link
 * ReplicaApplier#restore}) and tails from {@link dev.objlog.SnapshotMarker#replayFromLsn()}. After a
 * restore the cursor is saved at once, so a restart does not restore again.
 *
 * <p>Delivery is at-least-once with the idempotency key (stream id, partition, LSN): a restart
 * resumes exactly at the saved cursor, which may repeat the batch applied last before a crash.
 *
 * <p>Lifecycle: {@link #start()} once; {@link #pause()} / {@link #resume()} hold and release every
 * partition between batches; {@link #stop()} (and {@link #close()}) lets a batch in progress
 * finish and be saved, saves any position not saved yet, and waits for the loops to end. A
 * stopped replica does not start again: build a new one. A partition whose applier or store
 * fails stops alone in {@link State#FAILED} with its cursor before the failed batch.
 *
 * <p>Thread-safety: every method may be called from any thread.
 */
public final class Replica implements AutoCloseable {

  /** A partition loop's state. */
  public enum State {
    /** Loading the cursor, or restoring a snapshot. */
    STARTING,
    RUNNING,
    /** Held between batches by {@link #pause()}. */
    PAUSED,
    STOPPED,
    FAILED
  }

  /**
   * How far a partition is behind.
   *
   * @param records committed records not applied yet, by the newest head this replica knows
   * @param age elapsed time (the replica's {@link Ticker}) since the partition was last seen
   *     caught up; zero when it is
   */
  public record Lag(long records, Duration age) {}

  /**
   * A snapshot of one partition loop.
   *
   * @param position the LSN the next batch starts at (u64)
   * @param savedLsn the LSN the stored cursor holds, -1 (2^64−1 never is one) when none was saved
   *     by this runner or loaded
   * @param failure why the partition stopped, when {@link State#FAILED}
   */
  public record PartitionStatus(int partition, State state, long position, long savedLsn, Lag lag,
      @Nullable Throwable failure) {}

  private final Objlog log;
  private final LogReader reader;
  private final CursorStore cursors;
  private final SnapshotStore snapshots;
  private final ReplicaApplier applier;
  private final Executor executor;
  private final Ticker ticker;
  private final int batchLimit;
  private final Duration idleWait;
  private final Map<Integer, PartitionLoop> loops = new TreeMap<>();
  private final Object monitor = new Object();
  private final AtomicBoolean started = new AtomicBoolean();
  private volatile boolean paused;
  private volatile boolean stopping;
  private @Nullable Watch watch;
  private final @Nullable ConsumerRegistry registry;
  private final String consumerId;

  private Replica(Builder b) {
    this.log = b.log;
    this.reader = b.reader == null ? b.log.reader() : b.reader;
    this.cursors = b.cursors;
    this.snapshots = b.snapshots == null ? SnapshotStore.inBucket(b.log.store()) : b.snapshots;
    this.applier = b.applier;
    this.executor = b.executor == null ? Replica::daemonThread : b.executor;
    this.ticker = b.ticker == null ? b.log.options().ticker() : b.ticker;
    this.batchLimit = b.batchLimit;
    this.idleWait = b.idleWait;
    this.registry = b.registry;
    this.consumerId = b.consumerId;
    for (int p : b.partitions) {
      loops.put(p, new PartitionLoop(p));
    }
  }

  /** A builder of a replica of {@code log}, saving cursors in {@code cursors}. */
  public static Builder builder(Objlog log, CursorStore cursors, ReplicaApplier applier) {
    return new Builder(log, cursors, applier);
  }

  /**
   * Starts one loop per partition on the executor.
   *
   * @throws IllegalStateException when called a second time
   */
  public void start() {
    if (stopping || !started.compareAndSet(false, true)) {
      throw new IllegalStateException("a replica starts once; build a new one to start again");
    }
    Watch w = reader.watch(loops.keySet());
    synchronized (monitor) {
      watch = w;
    }
    for (PartitionLoop loop : loops.values()) {
      try {
        executor.execute(loop);
      } catch (RejectedExecutionException e) {
        loop.failed(e);
        loop.ended.countDown();
      }
    }
  }

  /** Holds every partition before its next batch (a batch in progress completes). */
  public void pause() {
    paused = true;
  }

  /** Releases a {@link #pause()}. */
  public void resume() {
    synchronized (monitor) {
      paused = false;
      monitor.notifyAll();
    }
  }

  /**
   * Stops every partition cleanly, as the class comment says, and waits until each loop ended.
   * Idempotent. If interrupted while waiting it returns early with the interrupt flag set.
   */
  public void stop() {
    Watch w;
    synchronized (monitor) {
      stopping = true;
      monitor.notifyAll();
      w = watch;
    }
    if (w != null) {
      w.close(); // wakes every blocked tailer
    }
    if (!started.get()) {
      return;
    }
    try {
      for (PartitionLoop loop : loops.values()) {
        loop.ended.await();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    stop();
  }

  /** The partitions this replica follows. */
  public Collection<Integer> partitions() {
    return List.copyOf(loops.keySet());
  }

  /** @throws InvalidArgumentException if this replica does not follow {@code partition} */
  public PartitionStatus status(int partition) {
    return loop(partition).status();
  }

  /** @throws InvalidArgumentException if this replica does not follow {@code partition} */
  public Lag lag(int partition) {
    return loop(partition).lag();
  }

  /** Every partition's status, by partition. */
  public List<PartitionStatus> statuses() {
    List<PartitionStatus> out = new ArrayList<>();
    for (PartitionLoop loop : loops.values()) {
      out.add(loop.status());
    }
    return out;
  }

  private PartitionLoop loop(int partition) {
    PartitionLoop loop = loops.get(partition);
    if (loop == null) {
      throw new InvalidArgumentException("this replica does not follow partition "
          + Integer.toUnsignedString(partition) + "; it follows " + loops.keySet());
    }
    return loop;
  }

  private static void daemonThread(Runnable r) {
    Thread t = new Thread(r, "objlog-replica");
    t.setDaemon(true);
    t.start();
  }

  /** One partition's loop. */
  private final class PartitionLoop implements Runnable {
    final int partition;
    final CountDownLatch ended = new CountDownLatch(1);
    volatile State state = State.STARTING;
    volatile long position;
    volatile long savedLsn = -1;
    /** Whether {@link #position} holds where the partition starts (no save before that). */
    private boolean positioned;
    volatile @Nullable Throwable failure;
    /** Ticker reading when the loop was first seen behind; null while caught up. */
    private volatile @Nullable Long behindSince;
    private CursorStore.Version version = CursorStore.Version.ABSENT;
    private @Nullable Tailer tailer;

    PartitionLoop(int partition) {
      this.partition = partition;
    }

    PartitionStatus status() {
      return new PartitionStatus(partition, state, position, savedLsn, lag(), failure);
    }

    Lag lag() {
      long known = position;
      try {
        known = reader.partition(partition).head(Freshness.CACHED).nextLsn();
      } catch (ObjlogException e) {
        // the reader is closed: what the loop saw last is all there is
      }
      long records = Long.compareUnsigned(known, position) > 0 ? known - position : 0;
      if (records == 0) {
        behindSince = null;
        return new Lag(0, Duration.ZERO);
      }
      Long since = behindSince;
      long now = ticker.read();
      if (since == null) {
        behindSince = now;
        since = now;
      }
      return new Lag(records, Duration.ofNanos(Math.max(0, now - since)));
    }

    @Override
    public void run() {
      try {
        position = startPosition();
        positioned = true;
        publish(position);
        while (!stopping) {
          if (paused && !holdWhilePaused()) {
            break;
          }
          ReadResult result;
          try {
            result = tail().next(idleWait);
          } catch (LsnExpiredException e) {
            closeTailer();
            position = restore("partition " + Integer.toUnsignedString(partition) + " fell below the retention floor at LSN "
                + Long.toUnsignedString(position), reader.head(partition));
            continue;
          }
          lag(); // notes when the loop fell behind, before the apply that catches up
          if (result.isEmpty()) {
            continue;
          }
          applier.apply(new ReplicaBatch(log.streamId(), partition, result.records(), result.nextLsn()));
          position = result.nextLsn();
          save(result.nextLsn());
          lag();
        }
        stopped();
      } catch (WatchClosedException e) {
        if (stopping) {
          stopped();
        } else {
          failed(e);
        }
      } catch (InterruptedException e) {
        stopped();
      } catch (Throwable e) {
        failed(e);
      } finally {
        closeTailer();
        ended.countDown();
      }
    }

    private Tailer tail() {
      Tailer t = tailer;
      if (t == null) {
        Watch w = Objects.requireNonNull(watch);
        t = w.tail(partition, position, batchLimit);
        tailer = t;
      }
      return t;
    }

    private void closeTailer() {
      Tailer t = tailer;
      tailer = null;
      if (t != null) {
        t.close();
      }
    }

    /** False when stopping ended the pause. */
    private boolean holdWhilePaused() throws InterruptedException {
      synchronized (monitor) {
        while (paused && !stopping) {
          state = State.PAUSED;
          monitor.wait();
        }
      }
      state = State.RUNNING;
      return !stopping;
    }

    /** After the saved cursor, from LSN 0, or from the newest snapshot, as the class comment says. */
    private long startPosition() throws Exception {
      PartitionHead head = reader.head(partition);
      Optional<CursorStore.Stored> stored = cursors.load(partition);
      long start;
      if (stored.isPresent()) {
        version = stored.get().version();
        CursorCheckpoint c = stored.get().checkpoint();
        savedLsn = c.nextLsn();
        if (!c.streamId().equals(log.streamId())) {
          throw new CheckpointMismatchException("the cursor of partition " + Integer.toUnsignedString(partition)
              + " belongs to stream " + c.streamId() + ", not " + log.streamId()
              + ": give this replica its own id or cursor store");
        }
        try {
          reader.partition(partition).resume(c, 1).close(); // checks partition, range and version
          start = c.nextLsn();
        } catch (LsnExpiredException e) {
          start = restore("the cursor at LSN " + Long.toUnsignedString(c.nextLsn())
              + " is below the retention floor", reader.head(partition));
        }
      } else if (head.oldestLsn() == 0) {
        Optional<SnapshotBootstrap.Loaded> loaded = SnapshotBootstrap.latest(log, snapshots, partition, head,
            "the replica has no cursor");
        start = loaded.isPresent() ? restored(loaded.get()) : 0;
      } else {
        start = restore("the replica has no cursor and records below LSN "
            + Long.toUnsignedString(head.oldestLsn()) + " were trimmed", head);
      }
      state = State.RUNNING;
      return start;
    }

    private long restore(String why, PartitionHead head) throws Exception {
      state = State.STARTING;
      long start = restored(SnapshotBootstrap.required(log, snapshots, partition, head, why));
      state = State.RUNNING;
      return start;
    }

    private long restored(SnapshotBootstrap.Loaded loaded) throws Exception {
      applier.restore(loaded.marker(), loaded.payload());
      save(loaded.replayFromLsn());
      return loaded.replayFromLsn();
    }

    private void save(long nextLsn) {
      version = cursors.save(CursorCheckpoint.of(log.streamId(), partition, nextLsn), version);
      savedLsn = nextLsn;
      publish(nextLsn);
    }

    /** Publishes the applied floor once the cursor says so: what is saved is what is done. */
    private void publish(long nextLsn) {
      ConsumerRegistry r = registry;
      if (r != null) {
        r.publish(consumerId, partition, nextLsn);
      }
    }

    private void stopped() {
      try {
        if (positioned && savedLsn != position) {
          save(position);
        }
        state = State.STOPPED;
      } catch (RuntimeException e) {
        failed(e);
      }
    }

    void failed(Throwable e) {
      failure = e;
      state = State.FAILED;
    }
  }

  /**
   * Builds a {@link Replica}.
   *
   * <p>Thread-safety: for one thread.
   */
  public static final class Builder {
    private final Objlog log;
    private final CursorStore cursors;
    private final ReplicaApplier applier;
    private final List<Integer> partitions = new ArrayList<>();
    private @Nullable SnapshotStore snapshots;
    private @Nullable LogReader reader;
    private @Nullable Executor executor;
    private @Nullable Ticker ticker;
    private int batchLimit;
    private Duration idleWait = Duration.ofMillis(500);
    private @Nullable ConsumerRegistry registry;
    private String consumerId = "";

    private Builder(Objlog log, CursorStore cursors, ReplicaApplier applier) {
      this.log = Objects.requireNonNull(log, "log");
      this.cursors = Objects.requireNonNull(cursors, "cursors");
      this.applier = Objects.requireNonNull(applier, "applier");
    }

    /** The partitions to follow (at least one; duplicates count once). */
    public Builder partitions(int... values) {
      for (int p : values) {
        if (!partitions.contains(p)) {
          partitions.add(p);
        }
      }
      return this;
    }

    /** Where snapshot payloads are read from; default {@link SnapshotStore#inBucket} of the log's store. */
    public Builder snapshots(SnapshotStore value) {
      this.snapshots = Objects.requireNonNull(value, "snapshots");
      return this;
    }

    /** The reader to tail with; default {@link Objlog#reader()}. */
    public Builder reader(LogReader value) {
      this.reader = Objects.requireNonNull(value, "reader");
      return this;
    }

    /**
     * Runs the partition loops (one long-running task each); default a daemon thread per
     * partition. An executor with fewer threads than partitions starves the rest.
     */
    public Builder executor(Executor value) {
      this.executor = Objects.requireNonNull(value, "executor");
      return this;
    }

    /** Measures {@link Lag#age()}; default the log's ticker. */
    public Builder ticker(Ticker value) {
      this.ticker = Objects.requireNonNull(value, "ticker");
      return this;
    }

    /**
     * Publishes this replica's applied floor of each partition to {@code value} under {@code
     * consumerId} (when it has positioned itself, then after every cursor save), so that
     * retention never trims what it has not applied: the registry holds retention of the log's
     * writers, and {@link dev.objlog.lifecycle.UntilConsumedRetention} advances retention to the
     * lowest floor. Default: publish nowhere.
     */
    public Builder consumerRegistry(ConsumerRegistry value, String consumerId) {
      this.registry = Objects.requireNonNull(value, "registry");
      this.consumerId = Objects.requireNonNull(consumerId, "consumerId");
      return this;
    }

    /** Records per batch at most; ≤ 0 (the default) means the reader's maximum. */
    public Builder batchLimit(int value) {
      this.batchLimit = value;
      return this;
    }

    /**
     * How long a loop at the tail waits for records before it looks at its lag again (default
     * 500 ms; new records wake it at once).
     */
    public Builder idleWait(Duration value) {
      Objects.requireNonNull(value, "idleWait");
      if (value.isNegative() || value.isZero()) {
        throw new InvalidArgumentException("the idle wait must be positive, was " + value);
      }
      this.idleWait = value;
      return this;
    }

    /** @throws InvalidArgumentException without partitions */
    public Replica build() {
      if (partitions.isEmpty()) {
        throw new InvalidArgumentException("a replica follows at least one partition: call partitions(...)");
      }
      return new Replica(this);
    }
  }
}
