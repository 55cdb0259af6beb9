package dev.objlog.internal.memory;

import dev.objlog.MemoryPart;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The accounting behind a {@code dev.objlog.MemoryBudget}: a fixed capacity shared by writer
 * accounts (one per partition writer) and cache accounts ({@link CacheAccount}, one per cache).
 * Each writer account is granted a reservation when it opens, which no other writer can take;
 * bytes a writer holds beyond its reservation are borrowed from what no reservation covers, and go
 * back to it as the account releases them.
 *
 * <p>Caches use what writers do not hold, reservations included: a cache {@linkplain
 * CacheAccount#admit admits} an entry only while writers' held bytes, cached bytes, the entry and
 * a {@linkplain #headroom() headroom} fit the capacity, and while no writer waits. A writer that
 * grows past what the caches leave first makes them evict (the shortfall plus the headroom, so the
 * next few grows do not evict again), then is granted by the writer rules alone: caches never make
 * a writer wait or fail.
 *
 * <p>Invariants: {@code reserved + borrowed <= capacity} whenever a borrow is granted (a grant is
 * refused rather than exceeded); reservations never sum past the capacity (a later account gets
 * what is left, possibly nothing, and borrows the rest); an account's held bytes are at most its
 * reservation plus what it borrowed; {@code held + cached <= capacity} after every admission (a
 * writer's grant may pass it for as long as a cache takes to give bytes back; admissions are
 * refused meanwhile).
 *
 * <p>Waiting: the pool never calls out while holding its lock. A waiter reads {@link
 * #generation()} while it still holds its own lock, drops that lock and calls {@link
 * #awaitChange(long)}; every release, close and {@link #wakeAll()} moves the generation on, so no
 * wake-up is lost. Lock order: a writer's lock, then a cache's, then the pool's, never the other
 * way round (a writer asks caches to evict with the pool's lock released; evictions call back
 * into {@link CacheAccount#release}).
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class MemoryPool {
  private final long capacity;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final LongAdder waitNanos = new LongAdder();
  private final LongAdder reclaimed = new LongAdder();
  private final AtomicLong zstdContexts = new AtomicLong();
  private final long headroom;
  private final List<CacheAccount> caches = new CopyOnWriteArrayList<>();

  // Guarded by lock.
  private long reserved;
  private long borrowed;
  private long held;
  private long generation;
  private long cached;
  private final long[] cachedByPart = new long[MemoryPart.values().length];
  private int waiters;

  public MemoryPool(long capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be positive, was " + capacity);
    }
    this.capacity = capacity;
    this.headroom = capacity >>> 6;
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

  /** Bytes held by all cache accounts. */
  public long cached() {
    lock.lock();
    try {
      return cached;
    } finally {
      lock.unlock();
    }
  }

  /** Bytes held for {@code part}: writers' {@link #held()}, or what that part's caches hold. */
  public long held(MemoryPart part) {
    lock.lock();
    try {
      return part == MemoryPart.WRITERS ? held : cachedByPart[part.ordinal()];
    } finally {
      lock.unlock();
    }
  }

  /** Every part's bytes at one instant. */
  public Map<MemoryPart, Long> heldByPart() {
    Map<MemoryPart, Long> out = new EnumMap<>(MemoryPart.class);
    lock.lock();
    try {
      for (MemoryPart part : MemoryPart.values()) {
        out.put(part, part == MemoryPart.WRITERS ? held : cachedByPart[part.ordinal()]);
      }
    } finally {
      lock.unlock();
    }
    return out;
  }

  /**
   * Bytes caches keep free beyond what writers hold: 1/64 of the capacity. Caches stop admitting
   * that far below the capacity and evict that much more than a writer's shortfall, so a writer
   * growing by a record at a time does not make caches evict at every record, nor caches refill
   * what a writer is about to take.
   */
  public long headroom() {
    return headroom;
  }

  /** Bytes caches evicted so that writers could grow, since the pool was made. */
  public long reclaimedBytes() {
    return reclaimed.sum();
  }

  /** Native zstd contexts readers and writers on this pool keep open now. */
  public long zstdContexts() {
    return zstdContexts.get();
  }

  /** Counts a native zstd context opened ({@code +1}) or closed ({@code -1}). */
  public void countZstdContexts(int delta) {
    zstdContexts.addAndGet(delta);
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
      return new Account(reservation, granted);
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
    waiters++;
    try {
      while (generation == seen) {
        changed.await();
      }
    } finally {
      waiters--;
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
   * Opens the account of one cache holding entries for {@code part}; {@code evictor} is asked to
   * give bytes back when a writer needs them.
   *
   * @throws IllegalArgumentException for {@link MemoryPart#WRITERS}
   */
  public CacheAccount openCache(MemoryPart part, CacheAccount.Evictor evictor) {
    if (part == MemoryPart.WRITERS) {
      throw new IllegalArgumentException("writers open accounts with open(reservation)");
    }
    CacheAccount account = new CacheAccount(this, part, evictor);
    caches.add(account);
    return account;
  }

  /** Admits {@code bytes} for a cache account, or answers false (see the class comment). */
  boolean admit(CacheAccount account, long bytes) {
    lock.lock();
    try {
      if (account.closed || waiters > 0 || held + cached + bytes + headroom > capacity) {
        return false;
      }
      account.held += bytes;
      cached += bytes;
      cachedByPart[account.part().ordinal()] += bytes;
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** What a cache would have to give up for {@code bytes} more to be admitted now (0 if none). */
  long shortfall(long bytes) {
    lock.lock();
    try {
      return Math.max(0, held + cached + bytes + headroom - capacity);
    } finally {
      lock.unlock();
    }
  }

  /** Whether a writer waits for this pool now (caches admit nothing meanwhile). */
  boolean writersWaiting() {
    lock.lock();
    try {
      return waiters > 0;
    } finally {
      lock.unlock();
    }
  }

  /** Returns up to {@code bytes} of a cache account's; closing returns all and forgets it. */
  void release(CacheAccount account, long bytes, boolean close) {
    lock.lock();
    try {
      long back = close ? account.held : Math.min(Math.max(0, bytes), account.held);
      account.held -= back;
      cached -= back;
      cachedByPart[account.part().ordinal()] -= back;
      if (close) {
        account.closed = true;
      }
      if (back > 0 || close) {
        moved();
      }
    } finally {
      lock.unlock();
    }
    if (close) {
      caches.remove(account);
    }
  }

  boolean isClosed(CacheAccount account) {
    lock.lock();
    try {
      return account.closed;
    } finally {
      lock.unlock();
    }
  }

  long cacheHeld(CacheAccount account) {
    lock.lock();
    try {
      return account.held;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Asks caches to give back {@code bytes}, blocks first, then segment indexes, then catalog
   * pages, the fullest cache of a part first. Called without the pool's lock.
   */
  private void reclaim(long bytes) {
    // Held bytes taken once, so the sort's order cannot change under it.
    record Holding(CacheAccount account, long held) {}
    List<Holding> order = new ArrayList<>();
    for (CacheAccount c : caches) {
      order.add(new Holding(c, cacheHeld(c)));
    }
    order.sort(Comparator.comparingInt((Holding h) -> h.account().part().ordinal())
        .thenComparing(Comparator.comparingLong(Holding::held).reversed()));
    long left = bytes;
    for (Holding h : order) {
      if (left <= 0) {
        break;
      }
      CacheAccount c = h.account();
      long has = cacheHeld(c);
      if (has > 0) {
        long freed = Math.max(0, c.evictor().evict(Math.min(has, left)));
        reclaimed.add(freed);
        left -= freed;
      }
    }
  }

  /**
   * One holder's share: its reservation and the bytes it holds. Thread-safety: safe for concurrent
   * use (guarded by the pool's lock).
   */
  public final class Account {
    private final long wanted;
    private final long reservation;
    // Guarded by the pool's lock.
    private long accountHeld;
    private boolean closed;

    private Account(long wanted, long reservation) {
      this.wanted = wanted;
      this.reservation = reservation;
    }

    /** The reservation this account asked for; {@link #reservation()} is less when it was short. */
    public long wanted() {
      return wanted;
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
     * Whether this account could ever hold {@code bytes}: they fit under its {@link #ceiling()}.
     * The ceiling is never below the account's own reservation (reservations never sum past the
     * capacity), so a need within the reservation is answered without the pool's lock.
     */
    public boolean couldEverHold(long bytes) {
      return bytes <= reservation || bytes <= ceiling();
    }

    /**
     * Makes this account hold at least {@code target} bytes, borrowing what its reservation does
     * not cover. When caches hold bytes the writer needs, they evict first, on this thread (see
     * the class comment); the grant then never depends on them.
     *
     * @return false, holding what it held before, when the pool cannot lend that much now
     */
    public boolean growTo(long target) {
      long shortfall;
      lock.lock();
      try {
        if (target <= accountHeld) {
          return true;
        }
        if (!grantable(target)) {
          return false;
        }
        shortfall = held + cached + (target - accountHeld) - capacity;
        if (shortfall <= 0) {
          grant(target);
          return true;
        }
      } finally {
        lock.unlock();
      }
      // Caches shrink before a writer waits: with the pool's lock released, since evictions call
      // back into it. Then the writer rules alone decide.
      reclaim(shortfall + headroom);
      lock.lock();
      try {
        if (target <= accountHeld) {
          return true;
        }
        if (!grantable(target)) {
          return false;
        }
        grant(target);
        return true;
      } finally {
        lock.unlock();
      }
    }

    // Guarded by the pool's lock.
    private boolean grantable(long target) {
      long extra = beyond(target) - beyond(accountHeld);
      return extra <= 0 || (!closed && reserved + borrowed + extra <= capacity);
    }

    // Guarded by the pool's lock; grantable(target) holds.
    private void grant(long target) {
      borrowed += beyond(target) - beyond(accountHeld);
      held += target - accountHeld;
      accountHeld = target;
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
