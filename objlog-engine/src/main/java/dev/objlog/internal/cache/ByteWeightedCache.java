package dev.objlog.internal.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.objlog.InvalidArgumentException;
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
 * <p>Thread-safety: safe for concurrent use. Concurrent {@link #get}s of one absent key load it
 * once; the others wait for that load.
 *
 * @param <K> key type (object keys, usually)
 * @param <V> immutable value type
 */
public final class ByteWeightedCache<K, V> {
  private final Cache<K, V> cache;
  private final long maxBytes;

  private ByteWeightedCache(Cache<K, V> cache, long maxBytes) {
    this.cache = cache;
    this.maxBytes = maxBytes;
  }

  /**
   * A cache holding at most {@code maxBytes} as measured by {@code weigher}.
   *
   * @param weigher the size in bytes a value costs while cached (non-negative)
   * @throws InvalidArgumentException if {@code maxBytes} is negative
   */
  public static <K, V> ByteWeightedCache<K, V> create(
      long maxBytes, ToIntFunction<? super V> weigher) {
    if (maxBytes < 0) {
      throw new InvalidArgumentException("a cache budget cannot be negative, was " + maxBytes);
    }
    Objects.requireNonNull(weigher, "weigher");
    Cache<K, V> cache =
        Caffeine.newBuilder()
            .executor(Runnable::run)
            .maximumWeight(maxBytes)
            .<K, V>weigher((key, value) -> Math.max(0, weigher.applyAsInt(value)))
            .build();
    return new ByteWeightedCache<>(cache, maxBytes);
  }

  /** The cached value, or null; does not load. */
  public @Nullable V getIfPresent(K key) {
    return cache.getIfPresent(key);
  }

  /**
   * The cached value, loading it with {@code loader} when absent. The loader's exceptions
   * propagate and nothing is cached for the key.
   */
  public V get(K key, Function<? super K, ? extends V> loader) {
    if (maxBytes == 0) {
      // Caffeine would load, insert and evict at once; skip the churn.
      return loader.apply(key);
    }
    return cache.get(key, loader);
  }

  /** Caches a value, replacing any previous one. */
  public void put(K key, V value) {
    if (maxBytes > 0) {
      cache.put(key, value);
    }
  }

  public void invalidate(K key) {
    cache.invalidate(key);
  }

  public void invalidateAll() {
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
