package dev.objlog.internal;

import dev.objlog.ObjlogOptions;
import dev.objlog.format.catalog.CatalogIdentity;
import dev.objlog.format.catalog.Key256;
import dev.objlog.format.key.KeyPrefixes;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.format.key.StreamIds;
import dev.objlog.internal.catalog.CatalogOptions;
import dev.objlog.internal.catalog.CatalogStore;
import dev.objlog.internal.catalog.PartitionCatalog;
import dev.objlog.internal.memory.MemoryMeters;
import dev.objlog.internal.memory.MemoryPool;
import dev.objlog.internal.metrics.MetricNames;
import dev.objlog.internal.retention.RetentionHolds;
import dev.objlog.internal.writer.SealResources;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Everything one open log shares between its writers, readers and maintenance: the store, the
 * resolved key layout, the catalog engine and its caches, time, threads, meters and the local
 * commit bus. Created by {@code Objlog.open}; internal code receives it instead of the public
 * {@code Objlog}.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class LogRuntime {
  private final ObjectStore store;
  private final String streamId;
  private final KeyPrefixes prefixes;
  private final Key256 streamKey;
  private final Key256 dataRootKey;
  private final CatalogStore catalogStore;
  private final ObjlogOptions options;
  private final ScheduledExecutorService scheduler;
  private final Executor storeIo;
  private final MemoryPool memory;
  private final LocalCommitBus commitBus;
  private final Map<Integer, PartitionCatalog> catalogs = new ConcurrentHashMap<>();
  private final RetentionHolds retentionHolds = new RetentionHolds();
  private final SealResources sealResources;
  /**
   * How many tailers of this log may read ahead at once: their decoded blocks are held outside the
   * memory budget's caches, so the number of read-aheads is what bounds them. More than the
   * processors would not decode faster (the blocks decode on the scheduler), only hold more.
   */
  private final Semaphore tailerReadAheads = new Semaphore(LogThread.SCHEDULER_THREADS);

  /** A runtime whose blocking store requests run on {@code scheduler} too. */
  public LogRuntime(ObjectStore store, String canonicalStreamId, ObjlogOptions options,
      ScheduledExecutorService scheduler, MemoryPool memory) {
    this(store, canonicalStreamId, options, scheduler, scheduler, memory);
  }

  /**
   * @param storeIo where writers run work that blocks on the store (segment uploads, head swaps),
   *     so that a slow store does not hold the scheduler threads that seal blocks
   * @param memory the pool of the options' {@code MemoryBudget}, which writers draw from
   */
  public LogRuntime(ObjectStore store, String canonicalStreamId, ObjlogOptions options,
      ScheduledExecutorService scheduler, Executor storeIo, MemoryPool memory) {
    this.store = store;
    this.memory = memory;
    this.streamId = canonicalStreamId;
    this.options = options;
    this.scheduler = scheduler;
    this.storeIo = storeIo;
    this.prefixes = KeyPrefixes.resolve(options.prefix(), options.catalogPrefix(), options.segmentRootPrefix());
    this.streamKey = Key256.of(StreamIds.streamKey(canonicalStreamId));
    this.dataRootKey = Key256.of(prefixes.dataRootKey());
    this.catalogStore = new CatalogStore(store, CatalogOptions.builder()
        .limits(options.leafLimit(), options.indexLimit())
        .pageCacheBytes(options.pageCacheBytes())
        .maxCachedHeads(options.maxCachedHeads())
        .sleeper(options.sleeper())
        .build(), memory);
    this.commitBus = LocalCommitBus.of(store);
    this.sealResources = new SealResources(memory);
    MemoryMeters.bind(options.meterRegistry(), memory);
  }

  public ObjectStore store() {
    return store;
  }

  /** The canonical stream id. */
  public String streamId() {
    return streamId;
  }

  public KeyPrefixes prefixes() {
    return prefixes;
  }

  /** The memory pool of the log's {@code MemoryBudget}, shared with every log on the same budget. */
  public MemoryPool memory() {
    return memory;
  }

  public ObjlogOptions options() {
    return options;
  }

  /** Wall time, for timestamps the log writes; never for elapsed time (see {@link #ticker()}). */
  public Clock clock() {
    return options.clock();
  }

  /** Elapsed time: every deadline, timeout and age. */
  public Ticker ticker() {
    return options.ticker();
  }

  public ScheduledExecutorService scheduler() {
    return scheduler;
  }

  /** Where work that blocks on store requests runs (the scheduler, unless the log has its own pool). */
  public Executor storeIo() {
    return storeIo;
  }

  public MeterRegistry meters() {
    return options.meterRegistry();
  }

  /** Tags every meter of this partition carries. */
  public Tags tags(int partition) {
    return Tags.of(MetricNames.TAG_STREAM, streamId, MetricNames.TAG_PARTITION, Integer.toUnsignedString(partition));
  }

  /**
   * Returns the memory the log's own caches hold (catalog pages) to the pool and frees the
   * writers' idle zstd contexts; called by {@code Objlog.close} after its readers closed. Writers
   * still open keep working, uncached, and free each sealer after its seal.
   */
  public void close() {
    catalogStore.close();
    sealResources.close();
  }

  /**
   * Permits for tailers reading a backlog ahead (one each while it runs): a tailer that gets none
   * reads one block at a time on its own thread, as without read-ahead.
   */
  public Semaphore tailerReadAheads() {
    return tailerReadAheads;
  }

  /** The block sealers and spare block buffers every writer of this log shares. */
  public SealResources sealResources() {
    return sealResources;
  }

  public CatalogStore catalogStore() {
    return catalogStore;
  }

  /** The retention holds every writer of this log honours when it applies retention. */
  public RetentionHolds retentionHolds() {
    return retentionHolds;
  }

  public LocalCommitBus commitBus() {
    return commitBus;
  }

  public PartitionKeys keys(int partition) {
    return catalog(partition).keys();
  }

  /** The catalog of one partition; one instance per partition, so its cached head is shared. */
  public PartitionCatalog catalog(int partition) {
    return catalogs.computeIfAbsent(partition, p -> catalogStore.partition(
        PartitionKeys.of(prefixes, streamId, p), new CatalogIdentity(p, streamKey, dataRootKey)));
  }
}
