package dev.objlog.spring.listener;

import dev.objlog.read.CursorCheckpoint;
import dev.objlog.spring.listener.checkpoint.CheckpointKey;
import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import dev.objlog.spring.listener.checkpoint.CheckpointVersion;
import dev.objlog.spring.listener.checkpoint.StoredCheckpoint;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Saves one partition's checkpoints, on the consumer's thread or (with {@code
 * objlog.listener.sync-checkpoints=false}) in the background.
 *
 * <p>In the background the latest position wins: {@link #offer} records the position and returns;
 * at most one save runs at a time, and when it ends the newest position offered meanwhile is saved
 * next, so a slow store saves less often instead of holding the consumer up. A position is only
 * ever offered once the method returned for every record before it, so a stored checkpoint never
 * names a record still in hand: at-least-once exactly as with synchronous saves; a crash redelivers
 * what was processed since the last save that completed.
 *
 * <p>Once the partition caught up with the head it knows, {@link #settle} finishes the saves on the
 * partition's thread before it waits for more records, so background saves overlap only the
 * reading of a backlog.
 *
 * <p>{@link #saveNow} (stop, revocation, failure, recovered records, restarts after a checkpoint
 * error) waits for a save that is running, takes over any position still waiting and saves on the
 * caller's thread, so the consumer's thread ends only after its last position is stored and no
 * save of it runs any more (a group member releases the lease after that thread ended). A save
 * that failed in the background ({@link dev.objlog.spring.listener.checkpoint.CheckpointConflictException
 * conflict}, lease deadline passed, store failure) is thrown by the consumer's next call here,
 * so it stops the partition as the synchronous save would have, one batch later.
 *
 * <p>Thread-safety: one consumer thread calls {@link #offer}, {@link #saveNow}, {@link #check},
 * {@link #reset} and {@link #awaitIdle}; the executor runs the background saves; the position and
 * time read by status and metrics are volatile. The repository version is touched only by the one
 * save that runs.
 */
final class CheckpointSaver {
  private final CheckpointRepository repository;
  private final CheckpointKey key;
  private final String streamId;
  private final int partition;
  private final Clock clock;
  /** Null: every save on the caller's thread. */
  private final @Nullable Executor executor;
  private final BooleanSupplier leaseValid;
  private final Object monitor = new Object();

  /** Written only by the one save that runs (the {@code saving} flag), read after it under the monitor. */
  private CheckpointVersion version = CheckpointVersion.ABSENT;
  // guarded by monitor
  /** The newest position offered and not yet taken by a save; -1: none. */
  private long waiting = -1;
  /** A background task is queued or running. */
  private boolean scheduled;
  /** A save (of either thread) is in progress. */
  private boolean saving;
  private @Nullable RuntimeException failure;

  private volatile long saved = -1;
  private volatile @Nullable Instant lastCheckpoint;

  CheckpointSaver(CheckpointRepository repository, CheckpointKey key, String streamId, int partition, Clock clock,
      @Nullable Executor executor, BooleanSupplier leaseValid) {
    this.repository = repository;
    this.key = key;
    this.streamId = streamId;
    this.partition = partition;
    this.clock = clock;
    this.executor = executor;
    this.leaseValid = leaseValid;
  }

  /** The position the last completed save stored (or the one loaded); -1: none. */
  long saved() {
    return saved;
  }

  @Nullable Instant lastCheckpoint() {
    return lastCheckpoint;
  }

  /** Learns the stored checkpoint (at start, and after a rolled-back transaction); empty: none. */
  void reset(Optional<StoredCheckpoint> stored) {
    synchronized (monitor) {
      awaitNotSavingLocked();
      waiting = -1;
      if (stored.isPresent()) {
        version = stored.get().version();
        saved = stored.get().checkpoint().nextLsn();
        lastCheckpoint = stored.get().updatedAt();
      } else {
        version = CheckpointVersion.ABSENT;
        saved = -1;
      }
    }
  }

  /**
   * Asks for {@code position} to be saved: in the background when this saver has an executor,
   * otherwise now.
   *
   * @throws RuntimeException what a background save failed with, or (synchronous) what this save did
   */
  void offer(long position) {
    Executor e = executor;
    if (e == null) {
      saveNow(position);
      return;
    }
    synchronized (monitor) {
      check();
      if (position == saved && waiting < 0) {
        return;
      }
      waiting = position;
      if (scheduled) {
        return; // the running or queued task takes the newest position
      }
      scheduled = true;
    }
    try {
      e.execute(this::drain);
    } catch (RejectedExecutionException rejected) {
      synchronized (monitor) {
        scheduled = false;
      }
      saveNow(position); // the container is stopping: keep the guarantee on this thread
    }
  }

  /** Saves {@code position} on this thread, after a save that runs, if it moved. */
  void saveNow(long position) {
    synchronized (monitor) {
      awaitNotSavingLocked();
      check();
      waiting = -1; // superseded: positions only grow between resets
      if (position == saved) {
        return;
      }
      saving = true;
    }
    try {
      store(position); // a failure is the caller's to handle: nothing to remember
    } finally {
      synchronized (monitor) {
        saving = false;
        monitor.notifyAll();
      }
    }
  }

  /**
   * Before the partition waits for more records: waits for a save that runs, saves a position still
   * waiting on this thread, and throws what a background save failed with. So a caught-up partition
   * never idles on an unsaved position or an unseen failure (its wait may be long: it ends only
   * when records arrive or its ticker moves on).
   */
  void settle() {
    long position;
    synchronized (monitor) {
      if (executor == null) {
        return;
      }
      awaitNotSavingLocked();
      check();
      position = waiting;
    }
    if (position >= 0) {
      saveNow(position);
    }
  }

  /** Throws what a background save failed with, once. */
  void check() {
    synchronized (monitor) {
      RuntimeException f = failure;
      if (f != null) {
        failure = null;
        throw f;
      }
    }
  }

  /** Returns once no save runs; a position still waiting is not saved (the caller decided not to). */
  void awaitIdle() {
    synchronized (monitor) {
      waiting = -1;
      awaitNotSavingLocked();
    }
  }

  private void awaitNotSavingLocked() {
    boolean interrupted = false;
    while (saving) {
      try {
        monitor.wait();
      } catch (InterruptedException e) {
        interrupted = true; // a save is short and bounded by the store's timeouts: finish waiting
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** The background task: saves the newest waiting position until none waits. */
  private void drain() {
    while (true) {
      long position;
      synchronized (monitor) {
        if (waiting < 0 || failure != null || saving) {
          scheduled = false;
          return;
        }
        position = waiting;
        waiting = -1;
        saving = true;
      }
      RuntimeException failed = null;
      try {
        store(position);
      } catch (RuntimeException e) {
        failed = e;
      } finally {
        synchronized (monitor) {
          saving = false;
          if (failed != null) {
            failure = failed;
            waiting = -1;
            scheduled = false;
          }
          monitor.notifyAll();
        }
      }
      if (failed != null) {
        return;
      }
    }
  }

  /** One save; the caller holds the {@code saving} flag, so nothing else touches the version. */
  private void store(long position) {
    if (!leaseValid.getAsBoolean()) {
      throw new LeaseDeadlinePassed(key);
    }
    CheckpointVersion next = repository.save(key, CursorCheckpoint.of(streamId, partition, position), version);
    version = next;
    saved = position;
    lastCheckpoint = clock.instant();
  }
}
