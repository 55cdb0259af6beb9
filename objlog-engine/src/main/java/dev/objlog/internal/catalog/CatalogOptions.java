package dev.objlog.internal.catalog;

import dev.objlog.InvalidArgumentException;
import dev.objlog.format.HashAlgorithm;
import dev.objlog.format.catalog.CatalogFormat;
import dev.objlog.store.Sleeper;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link CatalogStore} writes and caches catalogs.
 *
 * <p>The fan-out and hash algorithm apply to heads this engine creates; an existing head keeps
 * the fan-out and hash algorithm recorded in it (readers never need them, and changing them
 * mid-tree would only make pages of mixed sizes).
 *
 * <p>Thread-safety: immutable.
 *
 * @param leafLimit entries per sealed leaf page, 1..1024 (default 128)
 * @param indexLimit entries per sealed index page, 2..1024 (default 128)
 * @param hashAlgorithm trailer hash of new heads and pages (default XXH64, as the Go writer)
 * @param fenceAttempts head compare-and-swap tries of a takeover (default 32)
 * @param fenceInitialBackoff pause after the first failed takeover try (default 2 ms), doubling
 * @param fenceMaxBackoff the takeover pause never grows past this (default 100 ms)
 * @param publishAttempts tries of each page write and of the head compare-and-swap of a publish,
 *     and of creating a head (default 3)
 * @param publishInitialBackoff pause after the first failed publish try (default 5 ms), doubling
 * @param publishMaxBackoff the publish pause never grows past this (default 50 ms)
 * @param pageCacheBytes budget of the decoded-page cache shared by the store's partitions
 *     (default 64 MiB; 0 disables it)
 * @param maxCachedHeads heads kept for readers, least recently used evicted (default 16 384)
 * @param sleeper how backoff pauses wait (virtual time in tests)
 */
public record CatalogOptions(
    int leafLimit,
    int indexLimit,
    HashAlgorithm hashAlgorithm,
    int fenceAttempts,
    Duration fenceInitialBackoff,
    Duration fenceMaxBackoff,
    int publishAttempts,
    Duration publishInitialBackoff,
    Duration publishMaxBackoff,
    long pageCacheBytes,
    int maxCachedHeads,
    Sleeper sleeper) {

  /**
   * @throws InvalidArgumentException for a value outside its documented range
   */
  public CatalogOptions {
    Objects.requireNonNull(hashAlgorithm, "hashAlgorithm");
    Objects.requireNonNull(sleeper, "sleeper");
    if (leafLimit < 1 || leafLimit > CatalogFormat.MAX_LEAF_ENTRIES) {
      throw new InvalidArgumentException("leafLimit must be within [1, "
          + CatalogFormat.MAX_LEAF_ENTRIES + "], was " + leafLimit);
    }
    if (indexLimit < CatalogFormat.MIN_INDEX_LIMIT || indexLimit > CatalogFormat.MAX_INDEX_ENTRIES) {
      throw new InvalidArgumentException("indexLimit must be within [" + CatalogFormat.MIN_INDEX_LIMIT
          + ", " + CatalogFormat.MAX_INDEX_ENTRIES + "], was " + indexLimit);
    }
    if (fenceAttempts < 1 || publishAttempts < 1) {
      throw new InvalidArgumentException("attempts must be at least 1, were fence=" + fenceAttempts
          + " publish=" + publishAttempts);
    }
    checkBackoff(fenceInitialBackoff, fenceMaxBackoff, "fence");
    checkBackoff(publishInitialBackoff, publishMaxBackoff, "publish");
    if (pageCacheBytes < 0) {
      throw new InvalidArgumentException("pageCacheBytes cannot be negative, was " + pageCacheBytes);
    }
    if (maxCachedHeads < 0) {
      throw new InvalidArgumentException("maxCachedHeads cannot be negative, was " + maxCachedHeads);
    }
  }

  private static void checkBackoff(Duration initial, Duration max, String what) {
    Objects.requireNonNull(initial, what + "InitialBackoff");
    Objects.requireNonNull(max, what + "MaxBackoff");
    if (initial.isNegative() || max.compareTo(initial) < 0) {
      throw new InvalidArgumentException(what + " backoff must satisfy 0 <= initial <= max, was "
          + initial + ".." + max);
    }
  }

  /** The defaults of the Go library (PROTOCOLS.md §5.1, §5.2). */
  public static CatalogOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder(null);
  }

  public Builder toBuilder() {
    return new Builder(this);
  }

  /** The pause before try {@code attempt + 1} (attempts count from 1): doubling, capped. */
  static Duration backoff(Duration initial, Duration max, int attempt) {
    Duration d = initial;
    for (int i = 1; i < attempt && d.compareTo(max) < 0; i++) {
      d = d.multipliedBy(2);
    }
    return d.compareTo(max) > 0 ? max : d;
  }

  /** Collects options. Not thread-safe: confine to one thread. */
  public static final class Builder {
    private int leafLimit = CatalogFormat.DEFAULT_LEAF_LIMIT;
    private int indexLimit = CatalogFormat.DEFAULT_INDEX_LIMIT;
    private HashAlgorithm hashAlgorithm = HashAlgorithm.XXH64;
    private int fenceAttempts = 32;
    private Duration fenceInitialBackoff = Duration.ofMillis(2);
    private Duration fenceMaxBackoff = Duration.ofMillis(100);
    private int publishAttempts = 3;
    private Duration publishInitialBackoff = Duration.ofMillis(5);
    private Duration publishMaxBackoff = Duration.ofMillis(50);
    private long pageCacheBytes = 64L << 20;
    private int maxCachedHeads = 16_384;
    private Sleeper sleeper = Sleeper.SYSTEM;

    private Builder(@Nullable CatalogOptions from) {
      if (from != null) {
        leafLimit = from.leafLimit;
        indexLimit = from.indexLimit;
        hashAlgorithm = from.hashAlgorithm;
        fenceAttempts = from.fenceAttempts;
        fenceInitialBackoff = from.fenceInitialBackoff;
        fenceMaxBackoff = from.fenceMaxBackoff;
        publishAttempts = from.publishAttempts;
        publishInitialBackoff = from.publishInitialBackoff;
        publishMaxBackoff = from.publishMaxBackoff;
        pageCacheBytes = from.pageCacheBytes;
        maxCachedHeads = from.maxCachedHeads;
        sleeper = from.sleeper;
      }
    }

    public Builder limits(int leafLimit, int indexLimit) {
      this.leafLimit = leafLimit;
      this.indexLimit = indexLimit;
      return this;
    }

    public Builder hashAlgorithm(HashAlgorithm value) {
      hashAlgorithm = value;
      return this;
    }

    public Builder fence(int attempts, Duration initialBackoff, Duration maxBackoff) {
      fenceAttempts = attempts;
      fenceInitialBackoff = initialBackoff;
      fenceMaxBackoff = maxBackoff;
      return this;
    }

    public Builder publish(int attempts, Duration initialBackoff, Duration maxBackoff) {
      publishAttempts = attempts;
      publishInitialBackoff = initialBackoff;
      publishMaxBackoff = maxBackoff;
      return this;
    }

    public Builder pageCacheBytes(long value) {
      pageCacheBytes = value;
      return this;
    }

    public Builder maxCachedHeads(int value) {
      maxCachedHeads = value;
      return this;
    }

    public Builder sleeper(Sleeper value) {
      sleeper = value;
      return this;
    }

    public CatalogOptions build() {
      return new CatalogOptions(leafLimit, indexLimit, hashAlgorithm, fenceAttempts,
          fenceInitialBackoff, fenceMaxBackoff, publishAttempts, publishInitialBackoff,
          publishMaxBackoff, pageCacheBytes, maxCachedHeads, sleeper);
    }
  }
}
