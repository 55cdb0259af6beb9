package dev.objlog.internal.memory;

import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The accounting behind a {@code dev.objlog.MemoryBudget}: a fixed capacity shared by accounts
 * (one per partition writer). Each account is granted a reservation when it opens, which no other
 * account can take; bytes an account holds beyond its reservation are borrowed from what no
 * reservation covers, and go back to it as the account releases them.
 *
 * <p>Invariants: {@code reserved + borrowed <= capacity} whenever a borrow is granted (a grant is
 * refused rather than exceeded); reservations never sum past the capacity (a later account gets
 * what is left, possibly nothing, and borrows the rest); an account's held bytes are at most its
 * reservation plus what it borrowed.
 *
 * <p>Waiting: the pool never calls out. A waiter reads {@link #generation()} while it still holds
 * its own lock, drops that lock and calls {@link #awaitChange(long)}; every release, close and
 * {@link #wakeAll()} moves the generation on, so no wake-up is lost. Lock order: a writer's lock,
 * then the pool's, never the other way round.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class MemoryPool {
  private final long capacity;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final LongAdder waitNanos = new LongAdder();

  // Guarded by lock.
  private long reserved;
  private long borrowed;
  private long held;
  private long generation;

  public MemoryPool(long capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be positive, was " + capacity);
    }
    this.capacity = capacity;
  }

  public long capacity() {
    return capacity;
  }

  /** Bytes held by all accounts (reserved bytes not in use are not counted). */
  public long held() {
    lock.lock();
    try {
      return held;
    } finally {
      lock.unlock();
    }
  }

  /** Sum of the reservations granted to open accounts. */
  public long reserved() {
    lock.lock();
    try {
      return reserved;
    } finally {
      lock.unlock();
    }
  }

  /** Bytes held beyond their account's reservation. */
  public long borrowed() {
    lock.lock();
    try {
      return borrowed;
    } finally {
      lock.unlock();
    }
  }

  /** Total time writers spent waiting for this pool, in nanoseconds. */
  public long waitNanos() {
    return waitNanos.sum();
  }

  public void recordWait(long nanos) {
    if (nanos > 0) {
      waitNanos.add(nanos);
    }
  }

  /**
   * Opens an account wanting {@code reservation} bytes guaranteed; it gets them, or what the
   * reservations of the accounts already open leave of the capacity.
   */
  public Account open(long reservation) {
    if (reservation < 0) {
      throw new IllegalArgumentException("reservation must not be negative, was " + reservation);
    }
    lock.lock();
    try {
      long granted = Math.min(reservation, capacity - reserved);
      reserved += granted;
      return new Account(granted);
    } finally {
      lock.unlock();
    }
  }

  /** A number that moves on whenever room may have freed up; read it before dropping a lock. */
  public long generation() {
    lock.lock();
    try {
      return generation;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until the generation moved past {@code seen}.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  public void awaitChange(long seen) throws InterruptedException {
    lock.lock();
    try {
      while (generation == seen) {
        changed.await();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Wakes every waiter (a writer stopped, so its waiters must look again). */
  public void wakeAll() {
    lock.lock();
    try {
      moved();
    } finally {
      lock.unlock();
    }
  }

  private void moved() {
    generation++;
    changed.signalAll();
  }

  /**
   * One holder's share: its reservation and the bytes it holds. Thread-safety: safe for concurrent
   * use (guarded by the pool's lock).
   */
  public final class Account {
    private final long reservation;
    // Guarded by the pool's lock.
    private long accountHeld;
    private boolean closed;

    private Account(long reservation) {
      this.reservation = reservation;
    }

    /** The bytes guaranteed to this account. */
    public long reservation() {
      return reservation;
    }

    public long held() {
      lock.lock();
      try {
        return accountHeld;
      } finally {
        lock.unlock();
      }
    }

    /**
     * The most this account could ever hold: its reservation plus everything no other account has
     * reserved. A need above it can never be granted, however long one waits.
     */
    public long ceiling() {
      lock.lock();
      try {
        return capacity - (reserved - (closed ? 0 : reservation));
      } finally {
        lock.unlock();
      }
    }

    /**
     * Makes this account hold at least {@code target} bytes, borrowing what its reservation does
     * not cover.
     *
     * @return false, holding what it held before, when the pool cannot lend that much now
     */
    public boolean growTo(long target) {
      lock.lock();
      try {
        if (target <= accountHeld) {
          return true;
        }
        long extra = beyond(target) - beyond(accountHeld);
        if (extra > 0 && (closed || reserved + borrowed + extra > capacity)) {
          return false;
        }
        borrowed += extra;
        held += target - accountHeld;
        accountHeld = target;
        return true;
      } finally {
        lock.unlock();
      }
    }

    /** Lets this account hold only {@code target} bytes (no-op if it holds fewer). */
    public void shrinkTo(long target) {
      lock.lock();
      try {
        long to = Math.max(0, target);
        if (to >= accountHeld) {
          return;
        }
        borrowed -= beyond(accountHeld) - beyond(to);
        held -= accountHeld - to;
        accountHeld = to;
        moved();
      } finally {
        lock.unlock();
      }
    }

    /** Returns everything this account holds and its reservation to the pool. Idempotent. */
    public void close() {
      lock.lock();
      try {
        if (closed) {
          return;
        }
        borrowed -= beyond(accountHeld);
        held -= accountHeld;
        accountHeld = 0;
        reserved -= reservation;
        closed = true;
        moved();
      } finally {
        lock.unlock();
      }
    }

    public MemoryPool pool() {
      return MemoryPool.this;
    }

    private long beyond(long bytes) {
      return Math.max(0, bytes - reservation);
    }
  }
}
