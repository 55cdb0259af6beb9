package dev.objlog.read;

import dev.objlog.InvalidArgumentException;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link LogReader} reads, caches and polls.
 *
 * <p>Thread-safety: immutable; build with {@link #builder()}.
 *
 * @param maxRecordsPerBatch most records one read returns; a read's limit ≤ 0 means this, larger
 *     limits are capped to it (default 1024)
 * @param pollInterval how often the watch poller refreshes the heads of watched partitions
 *     (default 1 s)
 * @param maxConcurrentRefreshes most head refreshes one poll runs at once (default 16)
 * @param refreshTimeout how long a poll waits for one head refresh before it moves on (default
 *     5 s); the refresh itself is not abandoned, and the partition is not refreshed twice at once
 * @param segmentIndexCacheBytes at most this many bytes of opened segments (validated trailer and
 *     block index) kept in memory (default 64 MiB), drawn from the log's {@code MemoryBudget}
 * @param blockCacheBytes at most this many bytes of decoded blocks kept in memory for repeated
 *     reads near the tail (default 256 MiB; 0 disables the cache), drawn from the log's {@code
 *     MemoryBudget}, which may hold the cache below it
 * @param readAheadBlocks blocks a replay, or a tailer behind the head, fetches ahead of its
 *     consumer (default 8; 0 reads one block at a time on the consumer's thread). Bounds a
 *     replay's (and each such tailer's) memory to about this many decoded blocks
 */
public record ReaderOptions(
    int maxRecordsPerBatch,
    Duration pollInterval,
    int maxConcurrentRefreshes,
    Duration refreshTimeout,
    long segmentIndexCacheBytes,
    long blockCacheBytes,
    int readAheadBlocks) {

  public static final int DEFAULT_MAX_RECORDS_PER_BATCH = 1024;

  public ReaderOptions {
    Objects.requireNonNull(pollInterval, "pollInterval");
    Objects.requireNonNull(refreshTimeout, "refreshTimeout");
    if (maxRecordsPerBatch < 1) {
      throw new InvalidArgumentException("maxRecordsPerBatch must be at least 1, was " + maxRecordsPerBatch);
    }
    if (pollInterval.isNegative() || pollInterval.isZero()) {
      throw new InvalidArgumentException("pollInterval must be positive, was " + pollInterval);
    }
    if (maxConcurrentRefreshes < 1) {
      throw new InvalidArgumentException(
          "maxConcurrentRefreshes must be at least 1, was " + maxConcurrentRefreshes);
    }
    if (refreshTimeout.isNegative() || refreshTimeout.isZero()) {
      throw new InvalidArgumentException("refreshTimeout must be positive, was " + refreshTimeout);
    }
    if (segmentIndexCacheBytes < 0 || blockCacheBytes < 0) {
      throw new InvalidArgumentException("cache budgets must not be negative, were "
          + segmentIndexCacheBytes + " and " + blockCacheBytes);
    }
    if (readAheadBlocks < 0 || readAheadBlocks > 1024) {
      throw new InvalidArgumentException("readAheadBlocks must be 0..1024, was " + readAheadBlocks);
    }
  }

  public static ReaderOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder()
        .maxRecordsPerBatch(maxRecordsPerBatch)
        .pollInterval(pollInterval)
        .maxConcurrentRefreshes(maxConcurrentRefreshes)
        .refreshTimeout(refreshTimeout)
        .segmentIndexCacheBytes(segmentIndexCacheBytes)
        .blockCacheBytes(blockCacheBytes)
        .readAheadBlocks(readAheadBlocks);
  }

  /** Builds {@link ReaderOptions}. Not thread-safe. */
  public static final class Builder {
    private int maxRecordsPerBatch = DEFAULT_MAX_RECORDS_PER_BATCH;
    private Duration pollInterval = Duration.ofSeconds(1);
    private int maxConcurrentRefreshes = 16;
    private Duration refreshTimeout = Duration.ofSeconds(5);
    private long segmentIndexCacheBytes = 64L << 20;
    private long blockCacheBytes = 256L << 20;
    private int readAheadBlocks = 8;

    private Builder() {}

    public Builder maxRecordsPerBatch(int value) {
      maxRecordsPerBatch = value;
      return this;
    }

    public Builder pollInterval(Duration value) {
      pollInterval = value;
      return this;
    }

    public Builder maxConcurrentRefreshes(int value) {
      maxConcurrentRefreshes = value;
      return this;
    }

    public Builder refreshTimeout(Duration value) {
      refreshTimeout = value;
      return this;
    }

    public Builder segmentIndexCacheBytes(long value) {
      segmentIndexCacheBytes = value;
      return this;
    }

    public Builder blockCacheBytes(long value) {
      blockCacheBytes = value;
      return this;
    }

    public Builder readAheadBlocks(int value) {
      readAheadBlocks = value;
      return this;
    }

    public ReaderOptions build() {
      return new ReaderOptions(maxRecordsPerBatch, pollInterval, maxConcurrentRefreshes, refreshTimeout,
          segmentIndexCacheBytes, blockCacheBytes, readAheadBlocks);
    }
  }
}
