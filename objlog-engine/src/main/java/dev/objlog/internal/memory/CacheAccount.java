package dev.objlog.internal.memory;

import dev.objlog.MemoryPart;

/**
 * One cache's share of a {@link MemoryPool}: the bytes of the entries it keeps for one {@link
 * MemoryPart}. The cache {@linkplain #admit admits} an entry's bytes before keeping it and
 * {@linkplain #release releases} them when the entry goes (evicted, replaced or invalidated);
 * {@link #close} returns whatever is still held and makes every later admission fail.
 *
 * <p>The pool may call the {@link Evictor} from a writer's thread (never with the pool's lock
 * held) to take bytes back for writers; the evictor releases them through this account as usual.
 *
 * <p>Thread-safety: safe for concurrent use (guarded by the pool's lock).
 */
public final class CacheAccount {
  /** Gives back cached bytes when a writer needs them. */
  @FunctionalInterface
  public interface Evictor {
    /**
     * Evicts entries worth at least {@code bytes} (fewer if the cache holds fewer), releasing
     * them through the account.
     *
     * @return the bytes released
     */
    long evict(long bytes);
  }

  private final MemoryPool pool;
  private final MemoryPart part;
  private final Evictor evictor;
  // Guarded by the pool's lock.
  long held;
  boolean closed;

  CacheAccount(MemoryPool pool, MemoryPart part, Evictor evictor) {
    this.pool = pool;
    this.part = part;
    this.evictor = evictor;
  }

  public MemoryPart part() {
    return part;
  }

  Evictor evictor() {
    return evictor;
  }

  public MemoryPool pool() {
    return pool;
  }

  /**
   * Takes {@code bytes} for one entry, if the pool has them free beyond its headroom, no writer
   * waits and this account is open.
   *
   * @return false when the entry must not be kept
   */
  public boolean admit(long bytes) {
    return pool.admit(this, bytes);
  }

  /**
   * What this cache would have to evict of its own for an entry of {@code bytes} to be admitted
   * now: 0 if it fits, more than {@link #held()} if evicting itself would not be enough, and
   * {@link Long#MAX_VALUE} while a writer waits or once closed.
   */
  public long shortfall(long bytes) {
    if (pool.writersWaiting() || isClosed()) {
      return Long.MAX_VALUE;
    }
    return pool.shortfall(bytes);
  }

  /** Returns {@code bytes} of an entry that went (at most what the account holds). */
  public void release(long bytes) {
    pool.release(this, bytes, false);
  }

  public long held() {
    return pool.cacheHeld(this);
  }

  public boolean isClosed() {
    return pool.isClosed(this);
  }

  /** Returns everything this account holds; later admissions fail. Idempotent. */
  public void close() {
    pool.release(this, 0, true);
  }
}
