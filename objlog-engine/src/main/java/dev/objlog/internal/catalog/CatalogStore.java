package dev.objlog.internal.catalog;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.objlog.InvalidArgumentException;
import dev.objlog.format.catalog.CatalogIdentity;
import dev.objlog.format.catalog.DecodedPage;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.internal.cache.ByteWeightedCache;
import dev.objlog.internal.memory.MemoryPool;
import dev.objlog.store.ObjectStore;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The catalog engine over one {@link ObjectStore}: options plus the caches its partitions share
 * (decoded immutable pages, weighed by bytes and keyed by object key; recently read heads,
 * bounded by count and keyed by head key). Object keys include the catalog prefix, stream and
 * partition, so one cache serves every stream and partition of the store without collisions.
 *
 * <p>Thread-safety: safe for concurrent use; {@link PartitionCatalog}s it hands out share its
 * caches.
 */
public final class CatalogStore {
  private final ObjectStore store;
  private final CatalogOptions options;
  private final ByteWeightedCache<String, DecodedPage> pages;
  private final Cache<String, HeadSnapshot> heads;

  /** A catalog engine whose page cache draws from no memory pool (tools, verification). */
  public CatalogStore(ObjectStore store, CatalogOptions options) {
    this(store, options, null);
  }

  /**
   * @param memory the pool the page cache draws from (part {@code CATALOG_PAGES}), the options'
   *     {@code pageCacheBytes} being its ceiling; null for none
   */
  public CatalogStore(ObjectStore store, CatalogOptions options, @Nullable MemoryPool memory) {
    this.store = Objects.requireNonNull(store, "store");
    this.options = Objects.requireNonNull(options, "options");
    this.pages = CatalogTree.newPageCache(options.pageCacheBytes(), memory);
    this.heads =
        Caffeine.newBuilder().executor(Runnable::run).maximumSize(options.maxCachedHeads()).build();
  }

  /**
   * The catalog of one partition.
   *
   * @throws InvalidArgumentException if the identity's partition is not the keys' partition
   */
  public PartitionCatalog partition(PartitionKeys keys, CatalogIdentity identity) {
    if (keys.partition() != identity.partition()) {
      throw new InvalidArgumentException("catalog keys are for partition "
          + Integer.toUnsignedString(keys.partition()) + " but the identity names partition "
          + Integer.toUnsignedString(identity.partition()));
    }
    return new PartitionCatalog(this, keys, identity);
  }

  public ObjectStore objectStore() {
    return store;
  }

  public CatalogOptions options() {
    return options;
  }

  /** The decoded-page cache (exposed for metrics and tests). */
  public ByteWeightedCache<String, DecodedPage> pageCache() {
    return pages;
  }

  /** Drops the cached pages and returns their bytes to the memory pool; later pages are not cached. */
  public void close() {
    pages.close();
  }

  Cache<String, HeadSnapshot> headCache() {
    return heads;
  }
}
