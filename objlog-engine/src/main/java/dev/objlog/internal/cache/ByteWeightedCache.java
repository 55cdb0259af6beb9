package dev.objlog.internal.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Policy;
import com.github.benmanes.caffeine.cache.RemovalCause;
import dev.objlog.InvalidArgumentException;
import dev.objlog.MemoryPart;
import dev.objlog.internal.memory.CacheAccount;
import dev.objlog.internal.memory.MemoryPool;
import java.lang.ref.Cleaner;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import org.jspecify.annotations.Nullable;

/**
 * A cache of immutable values bounded by their total size in bytes, on Caffeine (window TinyLFU
 * eviction). Used for decoded catalog pages, segment block indexes and segment blocks: the values
 * are immutable and named by keys that never change meaning, so entries never need invalidating
 * for correctness, only for memory.
 *
 * <p>Eviction and weighing run on the calling thread ({@code executor(Runnable::run)}), so the
 * budget holds as soon as a call returns; this matters more to tests and to predictable memory
 * than the small latency it adds. A budget of 0 disables caching: every {@link #get} loads.
 *
 * <p>On a memory pool ({@link #create(long, ToIntFunction, MemoryPool, MemoryPart)}) the cache
 * also draws every entry's bytes from the pool's {@link CacheAccount}: an entry is kept only once
 * the pool admitted it, and released when it goes. When the pool has no room, the cache evicts its
 * own coldest entries to make it (never another cache's or a writer's bytes), so a cache that
 * reached the pool's limit keeps following what is read instead of keeping stale entries; while a
 * writer waits for the pool nothing is admitted. A writer that needs bytes makes the cache evict
 * ({@link CacheAccount.Evictor}). The maximum given stays a ceiling (a pinned size); with memory
 * to spare the cache behaves as one without a pool. {@link #close} returns every byte; a cache
 * never closed returns them when it becomes unreachable (the pool holds it only weakly).
 *
 * <p>Thread-safety: safe for concurrent use. Concurrent {@link #get}s of one absent key load it
 * once; the others wait for that load.
 *
 * @param <K> key type (object keys, usually)
 * @param <V> immutable value type
 */
public final class ByteWeightedCache<K, V> {
  private static final Cleaner CLEANER = Cleaner.create();

  private final Cache<K, V> cache;
  private final long maxBytes;
  private final ToIntFunction<? super V> weigher;
  private final @Nullable CacheAccount account;
  /** Serialises evictions, which lower the maximum for a moment and put it back. */
  private final Object shrinking = new Object();

  private ByteWeightedCache(long maxBytes, ToIntFunction<? super V> weigher,
      @Nullable MemoryPool pool, MemoryPart part) {
    this.maxBytes = maxBytes;
    this.weigher = weigher;
    CacheAccount opened = null;
    if (pool != null && maxBytes > 0) {
      // The pool may outlive this cache (a process-wide budget): it must not keep it reachable.
      WeakReference<ByteWeightedCache<?, ?>> self = new WeakReference<>(this);
      opened = pool.openCache(part, bytes -> {
        ByteWeightedCache<?, ?> c = self.get();
        return c == null ? 0 : c.evict(bytes);
      });
      CLEANER.register(this, opened::close);
    }
    this.account = opened;
    Caffeine<Object, Object> builder = Caffeine.newBuilder().executor(Runnable::run).maximumWeight(maxBytes);
    if (opened != null) {
      CacheAccount a = opened;
      // Runs on the calling thread (the executor above) for every removal: evicted, replaced,
      // invalidated. Values are immutable, so weighing again gives what was admitted.
      builder.removalListener((K key, V value, RemovalCause cause) -> {
        if (value != null) {
          a.release(weigh(weigher, value));
        }
      });
    }
    this.cache = builder.<K, V>weigher((key, value) -> weigh(weigher, value)).build();
  }

  private static <V> int weigh(ToIntFunction<? super V> weigher, V value) {
    return Math.max(0, weigher.applyAsInt(value));
  }

  /**
   * A cache holding at most {@code maxBytes} as measured by {@code weigher}, on no memory pool.
   *
   * @param weigher the size in bytes a value costs while cached (non-negative)
   * @throws InvalidArgumentException if {@code maxBytes} is negative
   */
  public static <K, V> ByteWeightedCache<K, V> create(
      long maxBytes, ToIntFunction<? super V> weigher) {
    return create(maxBytes, weigher, null, MemoryPart.BLOCKS);
  }

  /**
   * A cache holding at most {@code maxBytes}, and no more than {@code pool} admits, counted as
   * {@code part} of it.
   *
   * @param pool the memory pool entries draw from; null for none
   * @throws InvalidArgumentException if {@code maxBytes} is negative
   */
  public static <K, V> ByteWeightedCache<K, V> create(long maxBytes, ToIntFunction<? super V> weigher,
      @Nullable MemoryPool pool, MemoryPart part) {
    if (maxBytes < 0) {
      throw new InvalidArgumentException("a cache budget cannot be negative, was " + maxBytes);
    }
    Objects.requireNonNull(weigher, "weigher");
    Objects.requireNonNull(part, "part");
    return new ByteWeightedCache<>(maxBytes, weigher, pool, part);
  }

  /** The cached value, or null; does not load. */
  public @Nullable V getIfPresent(K key) {
    return cache.getIfPresent(key);
  }

  /**
   * The cached value, loading it with {@code loader} when absent. The loader's exceptions
   * propagate and nothing is cached for the key. A loaded value the memory pool does not admit is
   * returned all the same.
   */
  public V get(K key, Function<? super K, ? extends V> loader) {
    if (maxBytes == 0) {
      // Caffeine would load, insert and evict at once; skip the churn.
      return loader.apply(key);
    }
    CacheAccount a = account;
    if (a == null) {
      return cache.get(key, loader);
    }
    List<V> refused = new ArrayList<>(1);
    // Admitted inside the load, so concurrent gets of the key still load it once. A refused value
    // is not mapped (null), and room is made for it below, outside Caffeine's compute.
    V kept = cache.get(key, k -> {
      V v = loader.apply(k);
      if (a.admit(weigh(weigher, v))) {
        return v;
      }
      refused.add(v);
      return null;
    });
    if (kept != null) {
      return kept;
    }
    V v = refused.isEmpty() ? loader.apply(key) : refused.get(0);
    keepIfRoom(a, key, v, false);
    return v;
  }

  /** Caches a value, replacing any previous one. */
  public void put(K key, V value) {
    if (maxBytes == 0) {
      return;
    }
    CacheAccount a = account;
    if (a == null) {
      cache.put(key, value);
    } else if (a.admit(weigh(weigher, value))) {
      cache.put(key, value);
    } else {
      keepIfRoom(a, key, value, true);
    }
  }

  /** Evicts this cache's own coldest entries to make room for {@code value}, if that is enough. */
  private void keepIfRoom(CacheAccount a, K key, V value, boolean replace) {
    long w = weigh(weigher, value);
    if (w > maxBytes) {
      return;
    }
    long need = a.shortfall(w);
    if (need > a.held()) {
      return;
    }
    if (need > 0) {
      evict(need);
    }
    if (!a.admit(w)) {
      return;
    }
    if (replace) {
      cache.put(key, value);
    } else if (cache.asMap().putIfAbsent(key, value) != null) {
      a.release(w);
    }
  }

  /**
   * Evicts the coldest entries worth at least {@code bytes}, by lowering the maximum for a moment
   * (Caffeine evicts in its own order, on this thread) and putting it back.
   *
   * @return the bytes this cache holds fewer now
   */
  long evict(long bytes) {
    if (bytes <= 0) {
      return 0;
    }
    synchronized (shrinking) {
      Policy.Eviction<K, V> eviction = cache.policy().eviction().orElseThrow();
      cache.cleanUp();
      long before = eviction.weightedSize().orElse(0L);
      if (before == 0) {
        return 0;
      }
      eviction.setMaximum(Math.max(0, before - bytes));
      eviction.setMaximum(maxBytes);
      return Math.max(0, before - eviction.weightedSize().orElse(0L));
    }
  }

  public void invalidate(K key) {
    cache.invalidate(key);
  }

  public void invalidateAll() {
    cache.invalidateAll();
  }

  /** Drops every entry and returns the cache's bytes to its memory pool; nothing is kept after. */
  public void close() {
    // Account first: an entry loaded meanwhile is then refused rather than kept uncounted.
    if (account != null) {
      account.close();
    }
    cache.invalidateAll();
  }

  /** Bytes currently held, after running pending maintenance. */
  public long weightedBytes() {
    cache.cleanUp();
    return cache.policy().eviction().map(e -> e.weightedSize().orElse(0L)).orElse(0L);
  }

  /** Number of cached values, after running pending maintenance. */
  public long size() {
    cache.cleanUp();
    return cache.estimatedSize();
  }

  public long maxBytes() {
    return maxBytes;
  }
}
