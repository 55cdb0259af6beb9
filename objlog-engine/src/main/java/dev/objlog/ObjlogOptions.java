package dev.objlog;

import dev.objlog.format.key.StreamIds;
import dev.objlog.store.Sleeper;
import dev.objlog.store.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * How an {@link Objlog} lays out its objects and where it gets time, threads and meters from.
 *
 * <p>Key layout: objects live under {@code prefix} (default {@code objlog}); the catalog under
 * {@code <prefix>/catalog} unless {@code catalogPrefix} overrides it, segments under {@code
 * <prefix>} unless {@code segmentRootPrefix} does. A Go objlog process configured with the same
 * prefixes reads and writes the same objects.
 *
 * <p>Thread-safety: immutable; build with {@link #builder()}.
 *
 * @param prefix root prefix of every key ("" means {@code objlog})
 * @param catalogPrefix overrides where catalog objects live ("" = {@code <prefix>/catalog})
 * @param segmentRootPrefix overrides where segments live ("" = {@code <prefix>})
 * @param leafLimit segments per sealed leaf page for partitions this process creates (1..1024)
 * @param indexLimit references per sealed index page for partitions this process creates (2..1024)
 * @param pageCacheBytes at most this many bytes of decoded catalog pages kept in memory, drawn
 *     from the {@code memoryBudget}, which may hold the cache below it
 * @param maxCachedHeads partition heads kept in memory
 * @param clock wall time: the timestamps the log writes (segment creation times, retention requests,
 *     snapshot markers). Never used to measure elapsed time, so a wall-clock jump does not end a
 *     writer's deadline early or late
 * @param ticker elapsed time: every deadline, timeout and age the log measures ("time since": a
 *     segment's finalize deadline, a commit's publish deadline, persist time and append rate for
 *     the adaptive batch delay, a tailer's wait). Default {@link Ticker#SYSTEM} ({@link System#nanoTime()})
 * @param sleeper how retries and backoffs wait (replace together with the clock, ticker and
 *     scheduler for virtual time)
 * @param scheduler runs background work (batch timers, uploads, the watch poller); {@code null}
 *     means the log creates its own daemon threads and shuts them down on {@link Objlog#close()}
 * @param storeIoExecutor with a caller's {@code scheduler}: where writers run the work that blocks
 *     on the store (segment uploads, catalog head swaps), as the log's own threads keep it off the
 *     scheduler that seals blocks; {@code null} means the scheduler runs it too. Only allowed
 *     together with {@code scheduler}; the log never shuts it down
 * @param meterRegistry where meters go; the default discards them
 * @param random where the log draws random identifiers from (segment uuids); must be safe for
 *     concurrent use. The default is a {@link SecureRandom}. Inject a seeded generator only to make
 *     a test reproducible (the deterministic simulation does, together with the clock, ticker,
 *     sleeper and scheduler): two processes writing one stream with equally seeded generators could draw equal
 *     uuids.
 * @param memoryBudget the memory envelope this log's writers draw their pending bytes from, and its
 *     caches (catalog pages, readers' blocks and segment indexes) what writers do not hold; share
 *     one among all logs of a process. Default {@link MemoryBudget#processDefault()}, so logs opened
 *     with default options share one budget instead of each getting its own
 */
public record ObjlogOptions(
    String prefix,
    String catalogPrefix,
    String segmentRootPrefix,
    int leafLimit,
    int indexLimit,
    long pageCacheBytes,
    int maxCachedHeads,
    Clock clock,
    Ticker ticker,
    Sleeper sleeper,
    @Nullable ScheduledExecutorService scheduler,
    @Nullable Executor storeIoExecutor,
    MeterRegistry meterRegistry,
    RandomGenerator random,
    MemoryBudget memoryBudget) {

  public ObjlogOptions {
    Objects.requireNonNull(prefix, "prefix");
    Objects.requireNonNull(catalogPrefix, "catalogPrefix");
    Objects.requireNonNull(segmentRootPrefix, "segmentRootPrefix");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(ticker, "ticker");
    Objects.requireNonNull(sleeper, "sleeper");
    Objects.requireNonNull(meterRegistry, "meterRegistry");
    Objects.requireNonNull(random, "random");
    Objects.requireNonNull(memoryBudget, "memoryBudget");
    checkPrefix("prefix", prefix);
    checkPrefix("catalogPrefix", catalogPrefix);
    checkPrefix("segmentRootPrefix", segmentRootPrefix);
    if (storeIoExecutor != null && scheduler == null) {
      throw new InvalidArgumentException(
          "storeIoExecutor needs a scheduler too: without one the log creates and owns both pools");
    }
    if (leafLimit < 1 || leafLimit > 1024) {
      throw new InvalidArgumentException("leafLimit must be 1..1024, was " + leafLimit);
    }
    if (indexLimit < 2 || indexLimit > 1024) {
      throw new InvalidArgumentException("indexLimit must be 2..1024, was " + indexLimit);
    }
    if (pageCacheBytes < 0) {
      throw new InvalidArgumentException("pageCacheBytes must not be negative, was " + pageCacheBytes);
    }
    if (maxCachedHeads < 1) {
      throw new InvalidArgumentException("maxCachedHeads must be at least 1, was " + maxCachedHeads);
    }
  }

  /**
   * Key prefixes follow the stream-id rules (after trimming surrounding '/'): no empty, "." or
   * ".." segments and no control characters, so a misconfigured prefix fails here instead of
   * writing keys such as {@code ../x/catalog/...} that a filesystem-backed store would resolve
   * outside its root or refuse only at the first write.
   */
  private static void checkPrefix(String name, String value) {
    if (StreamIds.normalize(value).isEmpty()) {
      return;
    }
    try {
      StreamIds.canonical(value);
    } catch (InvalidArgumentException e) {
      throw new InvalidArgumentException(
          name + " is not a valid key prefix: " + e.getMessage().replace("stream id", "prefix"));
    }
  }

  public static ObjlogOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder()
        .prefix(prefix)
        .catalogPrefix(catalogPrefix)
        .segmentRootPrefix(segmentRootPrefix)
        .catalogLimits(leafLimit, indexLimit)
        .pageCacheBytes(pageCacheBytes)
        .maxCachedHeads(maxCachedHeads)
        .clock(clock)
        .ticker(ticker)
        .sleeper(sleeper)
        .scheduler(scheduler)
        .storeIoExecutor(storeIoExecutor)
        .meterRegistry(meterRegistry)
        .random(random)
        .memoryBudget(memoryBudget);
  }

  /** Shared by default so that equal settings still give equal options. */
  private static final SecureRandom DEFAULT_RANDOM = new SecureRandom();

  /** Builds {@link ObjlogOptions}. Not thread-safe. */
  public static final class Builder {
    private String prefix = "";
    private String catalogPrefix = "";
    private String segmentRootPrefix = "";
    private int leafLimit = 128;
    private int indexLimit = 128;
    private long pageCacheBytes = 64L << 20;
    private int maxCachedHeads = 16_384;
    private Clock clock = Clock.systemUTC();
    private Ticker ticker = Ticker.SYSTEM;
    private Sleeper sleeper = Sleeper.SYSTEM;
    private @Nullable ScheduledExecutorService scheduler;
    private @Nullable Executor storeIoExecutor;
    private MeterRegistry meterRegistry = new CompositeMeterRegistry();
    private @Nullable RandomGenerator random;
    private @Nullable MemoryBudget memoryBudget;

    private Builder() {}

    public Builder prefix(String value) {
      prefix = value;
      return this;
    }

    public Builder catalogPrefix(String value) {
      catalogPrefix = value;
      return this;
    }

    public Builder segmentRootPrefix(String value) {
      segmentRootPrefix = value;
      return this;
    }

    /** Fan-out of the catalog tree for partitions this process creates (default 128 / 128). */
    public Builder catalogLimits(int leaf, int index) {
      leafLimit = leaf;
      indexLimit = index;
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

    public Builder clock(Clock value) {
      clock = value;
      return this;
    }

    /** See {@link ObjlogOptions#ticker()}: replace for virtual time in tests. */
    public Builder ticker(Ticker value) {
      ticker = value;
      return this;
    }

    public Builder sleeper(Sleeper value) {
      sleeper = value;
      return this;
    }

    public Builder scheduler(@Nullable ScheduledExecutorService value) {
      scheduler = value;
      return this;
    }

    /** See {@link ObjlogOptions#storeIoExecutor()}: only together with {@link #scheduler}. */
    public Builder storeIoExecutor(@Nullable Executor value) {
      storeIoExecutor = value;
      return this;
    }

    public Builder meterRegistry(MeterRegistry value) {
      meterRegistry = value;
      return this;
    }

    /** See {@link ObjlogOptions#random()}: only for reproducible tests. */
    public Builder random(RandomGenerator value) {
      random = value;
      return this;
    }

    /** See {@link ObjlogOptions#memoryBudget()}: pass the one budget of your process. */
    public Builder memoryBudget(MemoryBudget value) {
      memoryBudget = value;
      return this;
    }

    public ObjlogOptions build() {
      return new ObjlogOptions(prefix, catalogPrefix, segmentRootPrefix, leafLimit, indexLimit,
          pageCacheBytes, maxCachedHeads, clock, ticker, sleeper, scheduler, storeIoExecutor, meterRegistry,
          random != null ? random : DEFAULT_RANDOM,
          memoryBudget != null ? memoryBudget : MemoryBudget.processDefault());
    }
  }
}
