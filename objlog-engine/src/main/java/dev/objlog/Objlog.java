package dev.objlog;

import dev.objlog.format.key.StreamIds;
import dev.objlog.internal.LogRuntime;
import dev.objlog.internal.LogThread;
import dev.objlog.internal.read.PartitionVerifier;
import dev.objlog.internal.catalog.CommitStatuses;
import dev.objlog.internal.catalog.HeadSnapshot;
import dev.objlog.internal.catalog.InitializeResult;
import dev.objlog.internal.catalog.PartitionCatalog;
import dev.objlog.internal.catalog.SegmentListing;
import dev.objlog.internal.catalog.SegmentRefs;
import dev.objlog.internal.read.DefaultLogReader;
import dev.objlog.internal.retention.RetentionRequests;
import dev.objlog.internal.retention.SnapshotMarkers;
import dev.objlog.internal.writer.WriterEngine;
import dev.objlog.read.LogReader;
import dev.objlog.read.ReaderOptions;
import dev.objlog.store.ObjectStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * One stream of a log in one object store: the entry point for writers, readers and maintenance.
 * A stream has any number of partitions, each an independent sequence of records with dense LSNs
 * starting at 0 (or where {@link #initializePartition} put it). Several {@code Objlog}s may share
 * one {@link ObjectStore}.
 *
 * <p>Thread-safety: safe for concurrent use. {@link #close()} stops the background threads the
 * log created itself; it never closes the store.
 */
public final class Objlog implements AutoCloseable {
  private final LogRuntime runtime;
  /** The store I/O pool when the log created its own threads (then it owns the scheduler too). */
  private final @Nullable ExecutorService ownedStoreIo;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Set<LogReader> readers = ConcurrentHashMap.newKeySet();
  private volatile @Nullable LogReader defaultReader;

  private Objlog(LogRuntime runtime, @Nullable ExecutorService ownedStoreIo) {
    this.runtime = runtime;
    this.ownedStoreIo = ownedStoreIo;
  }

  /**
   * Opens a stream. Nothing is read or written until a partition is used.
   *
   * @param streamId the stream id; leading and trailing {@code /} are dropped (see {@link
   *     #streamId()})
   * @throws InvalidArgumentException for an invalid stream id or options, saying what to change
   */
  public static Objlog open(ObjectStore store, String streamId, ObjlogOptions options) {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(options, "options");
    String canonical = StreamIds.canonical(Objects.requireNonNull(streamId, "streamId"));
    ScheduledExecutorService scheduler = options.scheduler();
    if (scheduler != null) {
      // a caller's scheduler runs everything, store I/O included, unless the caller gave a pool for that
      Executor storeIo = options.storeIoExecutor();
      return new Objlog(new LogRuntime(store, canonical, options, scheduler, storeIo != null ? storeIo : scheduler,
          options.memoryBudget().pool()), null);
    }
    ExecutorService storeIo = newStoreIo(canonical);
    return new Objlog(new LogRuntime(store, canonical, options, newScheduler(canonical), storeIo,
        options.memoryBudget().pool()), storeIo);
  }

  /** {@link #open(ObjectStore, String, ObjlogOptions)} with default options. */
  public static Objlog open(ObjectStore store, String streamId) {
    return open(store, streamId, ObjlogOptions.defaults());
  }

  /**
   * Threads for store requests that block (uploads, head swaps): as many as are in flight, so a
   * store's latency never holds a scheduler thread that should be sealing blocks.
   */
  private static ExecutorService newStoreIo(String streamId) {
    AtomicInteger n = new AtomicInteger();
    return Executors.newCachedThreadPool(r -> new LogThread(r, "objlog-" + streamId + "-io-" + n.incrementAndGet()));
  }

  private static ScheduledExecutorService newScheduler(String streamId) {
    AtomicInteger n = new AtomicInteger();
    ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(
        LogThread.SCHEDULER_THREADS,
        r -> new LogThread(r, "objlog-" + streamId + "-" + n.incrementAndGet()));
    pool.setRemoveOnCancelPolicy(true);
    return pool;
  }

  /** The canonical stream id (leading and trailing {@code /} removed). */
  public String streamId() {
    return runtime.streamId();
  }

  public ObjectStore store() {
    return runtime.store();
  }

  public ObjlogOptions options() {
    return runtime.options();
  }

  /**
   * Creates partition {@code partition} empty, with its first record to get LSN {@code nextLsn},
   * if it does not exist yet. Without this, a partition starts at LSN 0 when its first writer
   * opens.
   *
   * @return the partition's head: the new one, or the existing one when the partition already
   *     existed (then {@code nextLsn} is ignored)
   */
  public PartitionHead initializePartition(int partition, long nextLsn) {
    ensureOpen();
    PartitionCatalog catalog = runtime.catalog(partition);
    InitializeResult result = catalog.initializePartition(nextLsn);
    return SegmentRefs.toPartitionHead(catalog.keys(), result.head().head());
  }

  /**
   * Reads the partition's current head from the store.
   *
   * @return empty when the partition does not exist yet
   */
  public Optional<PartitionHead> head(int partition) {
    ensureOpen();
    PartitionCatalog catalog = runtime.catalog(partition);
    Optional<HeadSnapshot> head = catalog.refreshHead();
    return head.map(h -> SegmentRefs.toPartitionHead(catalog.keys(), h.head()));
  }

  /**
   * Up to {@code limit} of the partition's reachable segments in LSN order, from the one holding
   * {@code fromLsn} (from the oldest when {@code fromLsn} is below the retention floor), read from
   * a freshly refreshed head. Costs a conditional GET of the head plus one GET per catalog page on
   * the way that is not cached; segments still in the head's open leaf cost nothing more.
   *
   * @param limit the most segments to list (1 to 1024)
   * @return empty when the partition does not exist yet
   * @throws InvalidArgumentException if {@code limit} is outside 1 to 1024
   * @throws dev.objlog.store.StoreException if reading the catalog failed (ask again)
   */
  public Optional<SegmentPage> segments(int partition, long fromLsn, int limit) {
    if (limit < 1 || limit > 1024) {
      throw new InvalidArgumentException("limit must be between 1 and 1024, was " + limit);
    }
    ensureOpen();
    PartitionCatalog catalog = runtime.catalog(partition);
    return catalog.refreshHead().map(snapshot -> {
      SegmentListing listing = catalog.listSegments(snapshot.head(), fromLsn, limit);
      List<SegmentRef> refs = new ArrayList<>(listing.segments().size());
      listing.segments().forEach(entry -> refs.add(SegmentRefs.toSegmentRef(catalog.keys(), entry)));
      return new SegmentPage(SegmentRefs.toPartitionHead(catalog.keys(), snapshot.head()), refs, listing.nextLsn(),
          listing.hasMore());
    });
  }

  /**
   * Opens the single writer of {@code partition}: takes the partition over (fencing out any
   * earlier writer, whose next commit then fails with {@link StaleWriterException}) and continues
   * at the committed next LSN. A partition without a head starts at LSN 0.
   *
   * @throws ObjlogException if the takeover failed or its outcome is unknown; nothing was fenced
   *     in the first case, and in the second opening again is safe
   */
  public PartitionWriter openWriter(int partition, WriterOptions options) {
    Objects.requireNonNull(options, "options");
    ensureOpen();
    return WriterEngine.open(runtime, partition, options);
  }

  /** {@link #openWriter(int, WriterOptions)} with default options and a random writer id. */
  public PartitionWriter openWriter(int partition) {
    return openWriter(partition, WriterOptions.defaults());
  }

  /**
   * Whether each record is in the log: the answer a producer holding a {@link
   * CommitIndeterminateException} needs to append again without duplicates (docs/USAGE.md,
   * "Retrying without duplicates"). A record is {@link CommitStatus#COMMITTED} iff its LSN is below
   * the head's next LSN and the catalog segment holding it was published under the epoch of the
   * writer that accepted it ({@link AppendResult#writerEpoch()}); a segment of a later epoch there
   * means the partition's new owner reused the LSN. The answer is exact and final, and given only
   * once that writer epoch can commit nothing more, i.e. once the partition has been taken over.
   *
   * <p>Cost: none for results whose future completed normally (committed); otherwise one head
   * read per partition and one catalog lookup per distinct segment (a GET per tree level whose
   * page is not cached).
   *
   * @param results results of writers of this log, any partitions
   * @return one status per result, in the order given
   * @throws CommitUndecidableException if it cannot be decided: {@link
   *     CommitUndecidableException.Reason#NOT_TAKEN_OVER} (the writer that accepted a record still
   *     owns its partition: open a writer of it, or wait until another process did, and ask
   *     again) or {@link CommitUndecidableException.Reason#TRIMMED_BY_RETENTION} (final)
   * @throws InvalidArgumentException if a result cannot come from a writer of this log
   * @throws dev.objlog.store.StoreException if reading the catalog failed (ask again)
   */
  public List<CommitStatus> commitStatus(List<AppendResult> results) {
    Objects.requireNonNull(results, "results");
    ensureOpen();
    Map<Integer, List<Integer>> byPartition = new LinkedHashMap<>();
    for (int i = 0; i < results.size(); i++) {
      byPartition.computeIfAbsent(Objects.requireNonNull(results.get(i), "result").partition(),
          p -> new ArrayList<>()).add(i);
    }
    CommitStatus[] all = new CommitStatus[results.size()];
    for (Map.Entry<Integer, List<Integer>> e : byPartition.entrySet()) {
      List<Integer> indices = e.getValue();
      CommitStatus[] statuses = CommitStatuses.resolve(runtime.catalog(e.getKey()), e.getKey(),
          indices.stream().map(results::get).toList());
      for (int j = 0; j < statuses.length; j++) {
        all[indices.get(j)] = statuses[j];
      }
    }
    return List.of(all);
  }

  /**
   * The log's shared reader, with {@link ReaderOptions#defaults()}; created on first use and
   * closed with the log. Do not close it yourself: other users of the log share it.
   */
  public LogReader reader() {
    ensureOpen();
    LogReader reader = defaultReader;
    if (reader == null) {
      synchronized (readers) {
        reader = defaultReader;
        if (reader == null) {
          reader = newReader(ReaderOptions.defaults());
          defaultReader = reader;
        }
      }
    }
    return reader;
  }

  /**
   * A reader of its own (caches, poller) with {@code options}. Close it when done; the log closes
   * any still open when it closes.
   */
  public LogReader newReader(ReaderOptions options) {
    ensureOpen();
    LogReader reader = new DefaultLogReader(runtime, Objects.requireNonNull(options, "options"), readers::remove);
    readers.add(reader);
    return reader;
  }

  // ---------------------------------------------------------------- retention and snapshots

  /**
   * Asks the partition's writer to trim records below {@code beforeLsn} (PROTOCOLS.md §5.7):
   * writes the retention mailbox and changes nothing readable. The writer applies it with {@code
   * PartitionWriter.applyRetention()}; a {@link dev.objlog.lifecycle.Reclaimer} deletes the
   * trimmed objects after its delete delay. Requests are monotonic: each new one needs a higher
   * policy version and an LSN no lower than the last; the same request again is a no-op.
   *
   * @param policyVersion positive (u64)
   * @param beforeLsn trim every segment that ends below this LSN (u64)
   * @throws RetentionRegressionException if the request goes backwards
   * @throws InvalidArgumentException if {@code policyVersion} is 0
   */
  public RetentionRequest requestRetention(int partition, long policyVersion, long beforeLsn) {
    return requestRetention(partition, policyVersion, beforeLsn, RetentionGate.NONE);
  }

  /**
   * {@link #requestRetention(int, long, long)} lowered to what {@code gate} allows (consumer-gated
   * retention, or {@link #snapshotGate()}); see {@link RetentionGate}.
   */
  public RetentionRequest requestRetention(int partition, long policyVersion, long beforeLsn,
      RetentionGate gate) {
    ensureOpen();
    return RetentionRequests.request(runtime, partition, policyVersion, beforeLsn,
        Objects.requireNonNull(gate, "gate"));
  }

  /** The partition's current retention request, if one was ever made. */
  public Optional<RetentionRequest> retentionRequest(int partition) {
    ensureOpen();
    return RetentionRequests.current(runtime, partition);
  }

  /**
   * Announces an application snapshot of the partition through {@code throughLsn}, stored by the
   * application at {@code objectKey}, in {@code maintenance/snapshot.json} (our extension;
   * docs/FORMAT.md). Markers only advance; the same marker again is a no-op.
   *
   * @throws InvalidArgumentException if {@code throughLsn} is not committed yet or the key is
   *     empty
   * @throws SnapshotRegressionException if a newer snapshot covers a higher LSN
   */
  public SnapshotMarker recordSnapshot(int partition, long throughLsn, String objectKey) {
    ensureOpen();
    return SnapshotMarkers.record(runtime, partition, throughLsn,
        Objects.requireNonNull(objectKey, "objectKey"));
  }

  /**
   * The partition's newest snapshot marker: a replica loads the snapshot and replays from {@link
   * SnapshotMarker#replayFromLsn()}.
   */
  public Optional<SnapshotMarker> latestSnapshot(int partition) {
    ensureOpen();
    return SnapshotMarkers.latest(runtime.store(), runtime.keys(partition));
  }

  /**
   * A gate that never lets retention trim records the newest snapshot does not cover (nothing at
   * all while a partition has no snapshot). Combine it with other gates with {@link
   * RetentionGate#and}.
   */
  public RetentionGate snapshotGate() {
    return partition -> latestSnapshot(partition).map(SnapshotMarker::replayFromLsn).orElse(0L);
  }

  /**
   * Holds retention of {@code partition} at {@code beforeLsn} (u64) for an in-process consumer:
   * while the hold is open, this log's writers apply no retention request (whoever wrote it,
   * this library or a Go process) beyond it. Move it with {@link RetentionGate.Hold#moveTo} as
   * the consumer applies records; close it when the consumer goes away. A writer in another
   * process, and a Go writer, does not see it.
   */
  public RetentionGate.Hold holdRetention(int partition, long beforeLsn) {
    ensureOpen();
    return runtime.retentionHolds().hold(partition, beforeLsn);
  }

  /**
   * Holds retention of every partition at what {@code gate} allows, asked each time one of this
   * log's writers applies retention (for consumers in other processes, read from their
   * checkpoints, e.g. {@link dev.objlog.lifecycle.UntilConsumedRetention#gate()}).
   */
  public RetentionGate.Hold holdRetention(RetentionGate gate) {
    ensureOpen();
    return runtime.retentionHolds().hold(Objects.requireNonNull(gate, "gate"));
  }

  // ---------------------------------------------------------------- verification

  /**
   * Verifies one partition's whole tree as it is in the bucket: the head, every catalog page
   * (FORMAT.md §2.12: structure, hashes, references, LSN order without gaps, epochs, counts) and
   * every segment the catalog references (it exists with the catalog's size; with {@link
   * VerifyOptions#segmentHashes()} read in full and checked against its entry and hashes). Reads
   * only, never through the log's caches, at most {@link VerifyOptions#maxRequestsPerSecond()}
   * requests per second; safe while writers and readers run (it checks the head it read first).
   *
   * <p>Cost: one GET for the head, one per sealed page, and per segment one HEAD (or, with hashes,
   * about three ranged GETs plus one per 8 MiB).
   *
   * @return what was checked and every problem found ({@link PartitionVerification#ok()})
   * @throws dev.objlog.store.StoreException if the store failed; the verification is incomplete
   *     and can be run again
   */
  public PartitionVerification verifyPartition(int partition, VerifyOptions options) {
    Objects.requireNonNull(options, "options");
    ensureOpen();
    return PartitionVerifier.verify(runtime, partition, options);
  }

  /** For the engine's own packages; not part of the public API. */
  LogRuntime runtime() {
    return runtime;
  }

  void ensureOpen() {
    if (closed.get()) {
      throw new ObjlogException("the log for stream " + streamId() + " is closed");
    }
  }

  /**
   * Stops background threads the log created, closes its readers and returns the memory its
   * caches held to the {@link MemoryBudget}. Writers and readers should be closed first.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    for (LogReader reader : List.copyOf(readers)) {
      reader.close();
    }
    runtime.close();
    ExecutorService storeIo = ownedStoreIo;
    if (storeIo != null) {
      runtime.scheduler().shutdownNow();
      storeIo.shutdownNow();
    }
  }
}
