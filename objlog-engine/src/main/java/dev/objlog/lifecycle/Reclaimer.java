package dev.objlog.lifecycle;

import dev.objlog.CorruptObjectException;
import dev.objlog.InvalidArgumentException;
import dev.objlog.Objlog;
import dev.objlog.ObjlogException;
import dev.objlog.ObjlogOptions;
import dev.objlog.format.catalog.CatalogIdentity;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.Key256;
import dev.objlog.format.key.KeyPrefixes;
import dev.objlog.format.key.ParsedKey;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.format.key.StreamIds;
import dev.objlog.coordination.CasDocument;
import dev.objlog.internal.Elapsed;
import dev.objlog.internal.catalog.CatalogOptions;
import dev.objlog.internal.catalog.CatalogStore;
import dev.objlog.internal.catalog.HeadSnapshot;
import dev.objlog.internal.catalog.PartitionCatalog;
import dev.objlog.internal.metrics.MetricNames;
import dev.objlog.store.ListPage;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.StoredObject;
import dev.objlog.store.Ticker;
import dev.objlog.store.TransientStoreException;
import dev.objlog.store.VersionToken;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Deletes what a stream's catalog no longer references (PROTOCOLS.md §5.8). Never runs by itself:
 * call {@link #reclaim} and {@link #scrub} per partition, or hand the reclaimer to a {@link
 * Scheduler}.
 *
 * <p><b>Reclaim</b> observes the head's retention floor; once a floor has been stable for the
 * delete delay it becomes the <i>safe floor</i>, and the pass deletes, in key order, segments
 * whose base LSN is below it and pages whose last LSN is below it, then staging objects of
 * superseded writers older than the delay. <b>Scrub</b> deletes orphan segments (never referenced
 * by the catalog, older than the delay), and quarantines unreachable pages, deleting them on a
 * later pass if they are still unreachable after the delay.
 *
 * <p>The safe floor is never above the head's floor, so a reclaimer only deletes what the head no
 * longer references, and only after the delete delay: a reader that found a segment before
 * retention can still read it for that long. Progress is checkpointed in {@code
 * maintenance/gc/state.json}, which doubles as a lease (three times the pass budget) so that one
 * reclaimer works on a partition at a time; a pass killed midway is resumed from its checkpoint.
 *
 * <p>Errors: {@link LeaseHeldException} (another owner is active; nothing done), {@link
 * LeaseLostException} (stopped before its next delete), {@link CorruptObjectException} (the state
 * or head is not valid, or the head's floor went below the safe floor: nothing more is deleted),
 * store exceptions (retry the pass; deletes are idempotent).
 *
 * <p>Thread-safety: safe for concurrent use on different partitions; passes on one partition are
 * serialised by the lease.
 */
public final class Reclaimer implements Runner, AutoCloseable {
  private final ObjectStore store;
  private final String streamId;
  private final KeyPrefixes prefixes;
  private final CatalogStore catalogs;
  private final Key256 streamKey;
  private final Key256 dataRootKey;
  private final ReclaimerOptions options;
  private final MeterRegistry meters;
  /** The log's elapsed time: the pass budget, which a wall-clock jump must not end or stretch. */
  private final Ticker ticker;
  private final ExecutorService deleteExecutor;
  private final boolean ownsExecutor;
  private final Map<Integer, PartitionCatalog> partitions = new ConcurrentHashMap<>();
  private final Map<Integer, AtomicLong> quarantineGauges = new ConcurrentHashMap<>();

  private Reclaimer(ObjectStore store, String streamId, ObjlogOptions logOptions,
      ReclaimerOptions options) {
    this.store = store;
    this.streamId = streamId;
    this.options = options;
    this.meters = logOptions.meterRegistry();
    this.ticker = logOptions.ticker();
    this.prefixes = KeyPrefixes.resolve(logOptions.prefix(), logOptions.catalogPrefix(),
        logOptions.segmentRootPrefix());
    this.streamKey = Key256.of(StreamIds.streamKey(streamId));
    this.dataRootKey = Key256.of(prefixes.dataRootKey());
    this.catalogs = new CatalogStore(store, CatalogOptions.builder()
        .limits(logOptions.leafLimit(), logOptions.indexLimit())
        .pageCacheBytes(Math.min(logOptions.pageCacheBytes(), 16L << 20))
        .maxCachedHeads(Math.min(logOptions.maxCachedHeads(), 1024))
        .sleeper(logOptions.sleeper())
        .build());
    ExecutorService executor = options.deleteExecutor();
    this.ownsExecutor = executor == null;
    if (executor == null) {
      AtomicInteger n = new AtomicInteger();
      executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "objlog-reclaimer-delete-" + n.incrementAndGet());
        t.setDaemon(true);
        return t;
      });
    }
    this.deleteExecutor = executor;
  }

  /**
   * A reclaimer for {@code log}'s stream, with the log's key layout and meters. Closing it does not
   * close the log.
   */
  public static Reclaimer create(Objlog log, ReclaimerOptions options) {
    Objects.requireNonNull(log, "log");
    Objects.requireNonNull(options, "options");
    return new Reclaimer(log.store(), log.streamId(), log.options(), options);
  }

  public ReclaimerOptions options() {
    return options;
  }

  /** One ordered-reclaim pass over {@code partition}. See the class comment. */
  public ReclaimResult reclaim(int partition) {
    return new Pass(partition, Operation.RECLAIM).run();
  }

  /** One scrub pass over {@code partition}. See the class comment. */
  public ReclaimResult scrub(int partition) {
    return new Pass(partition, Operation.SCRUB).run();
  }

  @Override
  public ReclaimResult run(Task task) {
    return task.operation() == Operation.RECLAIM ? reclaim(task.partition()) : scrub(task.partition());
  }

  /** Stops the delete threads the reclaimer created; never an executor it was given. */
  @Override
  public void close() {
    if (ownsExecutor) {
      deleteExecutor.shutdownNow();
    }
  }

  PartitionCatalog catalog(int partition) {
    return partitions.computeIfAbsent(partition, p -> catalogs.partition(
        PartitionKeys.of(prefixes, streamId, p), new CatalogIdentity(p, streamKey, dataRootKey)));
  }

  private static String u20(long value) {
    String digits = Long.toUnsignedString(value);
    return "0".repeat(Math.max(0, 20 - digits.length())) + digits;
  }

  private static boolean below(long a, long b) {
    return Long.compareUnsigned(a, b) < 0;
  }

  /** A judgement on one listed object. */
  private enum Verdict {
    KEEP,
    DELETE,
    STOP
  }

  /** How a sweep ended. */
  private enum Stop {
    END,
    BUDGET
  }

  /** An object to delete. */
  private record Doomed(String key, long size) {}

  /** One pass over one partition. Confined to the calling thread. */
  private final class Pass {
    private final int partition;
    private final Operation operation;
    private final PartitionCatalog catalog;
    private final PartitionKeys keys;
    private final String stateKey;
    /** Ticker reading when the pass started. */
    private final long startNanos;
    private final Tags tags;
    private GcState state;
    private VersionToken token = VersionToken.ABSENT;
    private boolean leased;
    private boolean lost;
    private Head head;
    private long scanned;
    private long candidates;
    private long deleted;
    private long deletedBytes;
    private long invalid;
    private long quarantined;
    private boolean hasMore;

    Pass(int partition, Operation operation) {
      this.partition = partition;
      this.operation = operation;
      this.catalog = catalog(partition);
      this.keys = catalog.keys();
      this.stateKey = keys.gcState();
      this.startNanos = ticker.read();
      this.tags = Tags.of(MetricNames.TAG_STREAM, streamId, MetricNames.TAG_PARTITION,
          Integer.toUnsignedString(partition), MetricNames.TAG_OPERATION,
          operation.name().toLowerCase(java.util.Locale.ROOT));
      this.state = GcState.fresh(streamId, partition);
    }

    ReclaimResult run() {
      String outcome = "failed";
      try {
        if (options.dryRun()) {
          StoredObject current = get(stateKey);
          if (current != null) {
            state = GcState.decode(current.bytes(), streamId, partition);
          }
        } else {
          acquire();
        }
        Optional<HeadSnapshot> loaded = catalog.loadHead();
        if (loaded.isPresent()) {
          head = loaded.get().head();
          if (head.levelCount() > 0) {
            state.maxPageLevel = Math.max(state.maxPageLevel, Math.min(63, head.levelCount() - 1));
          }
          // A trim can drop the top levels from the head while their pages are still in the
          // bucket: look one level further each time until a level folder is empty.
          while (state.maxPageLevel < 63
              && !store.list(keys.pageLevelDir(state.maxPageLevel + 1), 1).entries().isEmpty()) {
            state.maxPageLevel++;
          }
          if (operation == Operation.RECLAIM) {
            reclaimPass();
          } else {
            scrubPass();
          }
        }
        outcome = hasMore ? "has_more" : "done";
        return result();
      } catch (LeaseHeldException e) {
        outcome = "lease_held";
        throw e;
      } catch (LeaseLostException e) {
        outcome = "lease_lost";
        meters.counter(MetricNames.LIFECYCLE_LEASE_LOST, tags).increment();
        throw e;
      } finally {
        release();
        meters.counter(MetricNames.LIFECYCLE_PASSES, tags.and(MetricNames.TAG_OUTCOME, outcome))
            .increment();
      }
    }

    private ReclaimResult result() {
      return new ReclaimResult(operation, partition, state.safeFloorLsn,
          state.segmentReclaimedThroughLsn, scanned, candidates, deleted, deletedBytes, invalid,
          quarantined, state.pageQuarantine.size(), hasMore, options.dryRun());
    }

    private long now() {
      return options.clock().millis();
    }

    // ---------------------------------------------------------------- reclaim

    private void reclaimPass() {
      long now = now();
      if (!state.hasPendingFloor && below(state.safeFloorLsn, head.oldestLsn())) {
        state.hasPendingFloor = true;
        state.pendingFloorLsn = head.oldestLsn();
        state.pendingSinceUnixMs = now;
        state.retentionVersion = head.appliedRetentionVersion();
      }
      if (state.hasPendingFloor
          && now - state.pendingSinceUnixMs >= options.deleteDelay().toMillis()) {
        state.safeFloorLsn = state.pendingFloorLsn;
        state.hasPendingFloor = false;
        state.pendingFloorLsn = 0;
        state.pendingSinceUnixMs = 0;
        state.pageLevel = 0;
        state.pageAfterKey = "";
      }
      save();
      long safe = state.safeFloorLsn;
      // (a) segments below the safe floor, in base-LSN order.
      if (below(state.segmentReclaimedThroughLsn, safe) || !state.segmentAfterKey.isEmpty()) {
        String from = state.segmentAfterKey.isEmpty()
            ? keys.segmentsDir() + "seg-" + u20(state.segmentReclaimedThroughLsn) + "-"
            : state.segmentAfterKey;
        Stop stop = sweep(keys.segmentsDir(), from, meta -> {
          ParsedKey.Segment segment = parse(meta, keys::parseSegment);
          if (segment == null) {
            return Verdict.KEEP;
          }
          return below(segment.baseLsn(), safe) ? Verdict.DELETE : Verdict.STOP;
        }, key -> state.segmentAfterKey = key, this::recheckFloor);
        if (stop == Stop.BUDGET) {
          hasMore = true;
          save();
          return;
        }
        state.segmentReclaimedThroughLsn = safe;
        state.segmentAfterKey = "";
        save();
      }
      // (b) pages whose last LSN is below the safe floor, level by level.
      if (below(state.pageReclaimedThroughLsn, safe)) {
        while (state.pageLevel <= state.maxPageLevel) {
          int level = state.pageLevel;
          String dir = keys.pageLevelDir(level);
          String name = level == 0 ? "leaf-" : "index-l" + (level < 10 ? "0" : "") + level + "-";
          String from = state.pageAfterKey.isEmpty()
              ? dir + name + u20(state.pageReclaimedThroughLsn) + "-"
              : state.pageAfterKey;
          Stop stop = sweep(dir, from, meta -> {
            ParsedKey.Page page = parse(meta, keys::parsePage);
            if (page == null) {
              return Verdict.KEEP;
            }
            return below(page.seqHi(), safe) ? Verdict.DELETE : Verdict.STOP;
          }, key -> state.pageAfterKey = key, this::recheckFloor);
          if (stop == Stop.BUDGET) {
            hasMore = true;
            save();
            return;
          }
          state.pageLevel++;
          state.pageAfterKey = "";
          save();
        }
        state.pageReclaimedThroughLsn = safe;
        state.pageLevel = 0;
        save();
      }
      // (c) staging objects of superseded writers, once they are old enough.
      if (state.stagingEpoch != head.writerEpoch()) {
        state.stagingEpoch = head.writerEpoch();
        state.stagingAfterKey = "";
      }
      long epoch = head.writerEpoch();
      Stop stop = sweep(keys.stagingDir(), state.stagingAfterKey, meta -> {
        ParsedKey.Staging staging = parse(meta, keys::parseStaging);
        if (staging == null) {
          return Verdict.KEEP;
        }
        return below(staging.writerEpoch(), epoch) && oldEnough(meta) ? Verdict.DELETE : Verdict.KEEP;
      }, key -> state.stagingAfterKey = key, () -> {});
      if (stop == Stop.BUDGET) {
        hasMore = true;
      } else {
        state.stagingAfterKey = "";
      }
      save();
    }

    /** Before each ordered delete wave: the head's floor must still be at or above the safe floor. */
    private void recheckFloor() {
      Head now = catalog.loadHead().orElseThrow(() -> new CorruptObjectException(
          "lifecycle: the head of partition " + Integer.toUnsignedString(partition) + " disappeared"))
          .head();
      if (below(now.oldestLsn(), state.safeFloorLsn)) {
        throw new CorruptObjectException("lifecycle: the head's retention floor "
            + Long.toUnsignedString(now.oldestLsn()) + " is below the safe floor "
            + Long.toUnsignedString(state.safeFloorLsn) + " of partition "
            + Integer.toUnsignedString(partition) + "; refusing to delete");
      }
      head = now;
    }

    private boolean oldEnough(ObjectMetadata meta) {
      return meta.lastModified().toEpochMilli() + options.deleteDelay().toMillis() <= now();
    }

    private <T> @Nullable T parse(ObjectMetadata meta, Function<String, T> parser) {
      try {
        return parser.apply(meta.key());
      } catch (CorruptObjectException e) {
        invalid++;
        return null;
      }
    }

    // ---------------------------------------------------------------- scrub

    private void scrubPass() {
      processQuarantine();
      if (hasMore) {
        save();
        return;
      }
      Stop stop = sweep(keys.segmentsDir(), state.orphanSegmentAfterKey, this::judgeOrphanSegment,
          key -> state.orphanSegmentAfterKey = key, () -> {});
      if (stop == Stop.BUDGET) {
        hasMore = true;
        save();
        return;
      }
      state.orphanSegmentAfterKey = "";
      save();
      quarantineUnreachablePages();
      save();
      quarantineGauge().set(state.pageQuarantine.size());
    }

    private Verdict judgeOrphanSegment(ObjectMetadata meta) {
      ParsedKey.Segment segment = parse(meta, keys::parseSegment);
      if (segment == null) {
        return Verdict.KEEP;
      }
      long base = segment.baseLsn();
      long epoch = segment.writerEpoch();
      if (!below(base, state.safeFloorLsn) && below(base, head.oldestLsn())) {
        return Verdict.KEEP; // trimmed, in its grace period: ordered reclaim's
      }
      if (below(head.writerEpoch(), epoch)) {
        return Verdict.KEEP; // a writer newer than the head we read
      }
      if (!below(base, head.nextLsn()) && !below(epoch, head.writerEpoch())) {
        return Verdict.KEEP; // the current writer's upload, not published yet
      }
      if (!below(base, head.oldestLsn()) && below(base, head.nextLsn())
          && catalog.referencesSegment(head, segment)) {
        return Verdict.KEEP;
      }
      return oldEnough(meta) ? Verdict.DELETE : Verdict.KEEP;
    }

    private void processQuarantine() {
      if (state.pageQuarantine.isEmpty()) {
        return;
      }
      long now = now();
      Head observed = head;
      List<GcState.Quarantined> keep = new ArrayList<>();
      List<Doomed> doomed = new ArrayList<>();
      for (GcState.Quarantined q : state.pageQuarantine) {
        if (now - q.observedUnixMs() < options.deleteDelay().toMillis()) {
          keep.add(q);
          continue;
        }
        ParsedKey.Page page;
        try {
          page = keys.parsePage(q.key());
        } catch (CorruptObjectException e) {
          invalid++;
          continue;
        }
        if (catalog.referencesPage(observed, page)) {
          continue; // reachable again (or all along): out of quarantine
        }
        if (below(page.generation(), observed.generation())) {
          doomed.add(new Doomed(q.key(), q.sizeBytes()));
        } else {
          keep.add(q);
        }
      }
      // The reachability checks must all have seen one catalog generation.
      Head after = catalog.loadHead().map(HeadSnapshot::head).orElse(observed);
      if (after.generation() != observed.generation()) {
        head = after;
        return;
      }
      int room = (int) Math.max(0, Math.min(options.maxDeletesPerRun() - deleted, doomed.size()));
      List<Doomed> now1 = doomed.subList(0, room);
      for (Doomed d : doomed.subList(room, doomed.size())) {
        hasMore = true;
        state.pageQuarantine.stream().filter(q -> q.key().equals(d.key())).forEach(keep::add);
      }
      deleteWave(now1, () -> {});
      state.pageQuarantine = keep;
      save();
    }

    private void quarantineUnreachablePages() {
      Set<String> held = new HashSet<>();
      state.pageQuarantine.forEach(q -> held.add(q.key()));
      while (state.orphanPageLevel <= state.maxPageLevel) {
        String dir = keys.pageLevelDir(state.orphanPageLevel);
        boolean levelDone = false;
        int retries = 0;
        while (!levelDone) {
          if (!canScan()) {
            hasMore = true;
            return;
          }
          int limit = (int) Math.min(options.listPageSize(), options.maxObjectsPerRun() - scanned);
          ListPage page = store.list(dir, state.orphanPageAfterKey, limit);
          Head observed = head;
          List<GcState.Quarantined> added = new ArrayList<>();
          String last = state.orphanPageAfterKey;
          boolean full = false;
          long seen = 0;
          for (ObjectMetadata meta : page.entries()) {
            if (state.pageQuarantine.size() + added.size() >= options.maxQuarantine()) {
              full = true;
              break;
            }
            seen++;
            last = meta.key();
            ParsedKey.Page parsed = parse(meta, keys::parsePage);
            if (parsed == null
                || below(parsed.seqHi(), state.safeFloorLsn)
                || held.contains(meta.key())
                || !below(parsed.generation(), observed.generation())
                || catalog.referencesPage(observed, parsed)) {
              continue;
            }
            added.add(new GcState.Quarantined(meta.key(), meta.size(), observed.generation(), now()));
          }
          Head after = catalog.loadHead().map(HeadSnapshot::head).orElse(observed);
          if (after.generation() != observed.generation()) {
            // The catalog changed during the checks: judge this page again against the new head.
            head = after;
            if (++retries > 3) {
              hasMore = true;
              return;
            }
            continue;
          }
          scanned += seen;
          quarantined += added.size();
          for (GcState.Quarantined q : added) {
            held.add(q.key());
            state.pageQuarantine.add(q);
          }
          state.orphanPageAfterKey = last;
          save();
          if (full) {
            hasMore = true;
            return;
          }
          levelDone = !page.hasMore();
        }
        state.orphanPageLevel++;
        state.orphanPageAfterKey = "";
      }
      state.orphanPageLevel = 0;
      state.orphanPageAfterKey = "";
    }

    private AtomicLong quarantineGauge() {
      return quarantineGauges.computeIfAbsent(partition, p -> meters.gauge(
          MetricNames.LIFECYCLE_QUARANTINE,
          Tags.of(MetricNames.TAG_STREAM, streamId, MetricNames.TAG_PARTITION,
              Integer.toUnsignedString(p)),
          new AtomicLong()));
    }

    // ---------------------------------------------------------------- sweeping and deleting

    private boolean outOfTime() {
      return ticker.read() - startNanos >= Elapsed.nanos(options.maxPassDuration());
    }

    private boolean canScan() {
      return scanned < options.maxObjectsPerRun() && !outOfTime();
    }

    private boolean canDelete(int pending) {
      return deleted + pending < options.maxDeletesPerRun()
          && deletedBytes < options.maxDeleteBytes()
          && !outOfTime();
    }

    /**
     * Lists {@code prefix} after {@code from}, judging each object; deletes in waves, and after
     * each wave checkpoints the last judged key through {@code checkpoint} and saves the state.
     */
    private Stop sweep(String prefix, String from, Function<ObjectMetadata, Verdict> judge,
        Consumer<String> checkpoint, Runnable beforeDelete) {
      String after = from;
      String judged = from;
      List<Doomed> wave = new ArrayList<>();
      int waveLimit = options.deleteBatchSize() * options.deleteConcurrency();
      while (true) {
        if (!canScan()) {
          flush(wave, judged, checkpoint, beforeDelete);
          return Stop.BUDGET;
        }
        int limit = (int) Math.min(options.listPageSize(), options.maxObjectsPerRun() - scanned);
        ListPage page = store.list(prefix, after, limit);
        for (ObjectMetadata meta : page.entries()) {
          if (!canScan()) {
            flush(wave, judged, checkpoint, beforeDelete);
            return Stop.BUDGET;
          }
          Verdict verdict = judge.apply(meta);
          scanned++;
          if (verdict == Verdict.STOP) {
            flush(wave, judged, checkpoint, beforeDelete);
            return Stop.END;
          }
          if (verdict == Verdict.DELETE) {
            if (!canDelete(wave.size())) {
              scanned--;
              flush(wave, judged, checkpoint, beforeDelete);
              return Stop.BUDGET;
            }
            wave.add(new Doomed(meta.key(), meta.size()));
          }
          judged = meta.key();
          if (wave.size() >= waveLimit) {
            flush(wave, judged, checkpoint, beforeDelete);
          }
        }
        String next = page.nextAfterKey();
        if (next == null || page.entries().isEmpty()) {
          flush(wave, judged, checkpoint, beforeDelete);
          return Stop.END;
        }
        after = next;
      }
    }

    private void flush(List<Doomed> wave, String judged, Consumer<String> checkpoint,
        Runnable beforeDelete) {
      deleteWave(wave, beforeDelete);
      wave.clear();
      checkpoint.accept(judged);
      save();
    }

    /** Deletes one wave: rate limit, renew the lease (which checks it), then delete in batches. */
    private void deleteWave(List<Doomed> wave, Runnable beforeDelete) {
      if (wave.isEmpty()) {
        return;
      }
      candidates += wave.size();
      if (options.dryRun()) {
        return;
      }
      beforeDelete.run();
      try {
        options.deleteRateLimiter().acquire(wave.size());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TransientStoreException("lifecycle: interrupted while waiting for the delete rate limit", false, e);
      }
      save();
      List<List<String>> batches = new ArrayList<>();
      for (int i = 0; i < wave.size(); i += options.deleteBatchSize()) {
        batches.add(wave.subList(i, Math.min(wave.size(), i + options.deleteBatchSize())).stream()
            .map(Doomed::key).toList());
      }
      if (batches.size() == 1) {
        store.delete(batches.get(0));
      } else {
        List<Future<?>> futures = new ArrayList<>();
        for (List<String> batch : batches) {
          futures.add(deleteExecutor.submit(() -> store.delete(batch)));
        }
        RuntimeException failure = null;
        for (Future<?> future : futures) {
          try {
            future.get();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            futures.forEach(f -> f.cancel(true));
            throw new TransientStoreException("lifecycle: interrupted while deleting", true, e);
          } catch (ExecutionException e) {
            if (failure == null) {
              failure = e.getCause() instanceof RuntimeException r ? r
                  : new ObjlogException("lifecycle: delete failed", e.getCause());
            }
          }
        }
        if (failure != null) {
          throw failure;
        }
      }
      long bytes = wave.stream().mapToLong(Doomed::size).sum();
      deleted += wave.size();
      deletedBytes += bytes;
      meters.counter(MetricNames.LIFECYCLE_DELETED_OBJECTS, tags).increment(wave.size());
      meters.counter(MetricNames.LIFECYCLE_DELETED_BYTES, tags).increment(bytes);
    }

    // ---------------------------------------------------------------- state and lease

    private @Nullable StoredObject get(String key) {
      try {
        return store.get(key);
      } catch (ObjectNotFoundException e) {
        return null;
      }
    }

    /** The partition's state and lease as a compare-and-swap document; {@code attempts} a call. */
    private CasDocument<GcState> document(int attempts) {
      return new CasDocument<>(store, stateKey, "lifecycle state",
          CasDocument.Codec.of(bytes -> GcState.decode(bytes, streamId, partition), GcState::encode),
          CasDocument.Retries.immediate(attempts));
    }

    private void acquire() {
      long leaseMs = options.leaseDuration().toMillis();
      CasDocument.Updated<GcState> taken;
      try {
        taken = document(options.casAttempts()).update(stored -> {
          long now = now();
          GcState candidate = stored.orElseGet(() -> GcState.fresh(streamId, partition));
          if (!candidate.ownerId.isEmpty() && !candidate.ownerId.equals(options.ownerId())
              && Long.compareUnsigned(candidate.leaseUntilUnixMs, now) > 0) {
            throw new LeaseHeldException("lifecycle: partition " + Integer.toUnsignedString(partition)
                + " is leased by " + candidate.ownerId + " until " + candidate.leaseUntilUnixMs,
                candidate.ownerId, candidate.leaseUntilUnixMs);
          }
          candidate.ownerId = options.ownerId();
          candidate.leaseUntilUnixMs = now + leaseMs;
          candidate.updatedUnixMs = now;
          return CasDocument.write(candidate, candidate);
        });
      } catch (CasDocument.ExhaustedException e) {
        if (e.getCause() instanceof RuntimeException storeError) {
          throw storeError;
        }
        StoredObject last = e.lastSeen();
        String owner = last == null ? "" : GcState.decode(last.bytes(), streamId, partition).ownerId;
        throw new LeaseHeldException("lifecycle: the state of partition "
            + Integer.toUnsignedString(partition) + " kept changing for " + options.casAttempts()
            + " attempts", owner, 0);
      }
      adopt(taken.result(), taken.token());
    }

    private void adopt(GcState newState, VersionToken newToken) {
      state = newState;
      token = newToken;
      leased = true;
    }

    /** Saves the state, re-stamping the lease; a state changed by anyone else is a lost lease. */
    private void save() {
      if (options.dryRun() || !leased) {
        return;
      }
      long now = now();
      state.ownerId = options.ownerId();
      state.leaseUntilUnixMs = now + options.leaseDuration().toMillis();
      state.updatedUnixMs = now;
      write(state);
    }

    private void write(GcState saved) {
      CasDocument.Swap swap;
      try {
        swap = document(3).swap(token, saved);
      } catch (CasDocument.ExhaustedException e) {
        throw new TransientStoreException("lifecycle: could not save the state of partition "
            + Integer.toUnsignedString(partition), true, e.getCause());
      }
      if (swap instanceof CasDocument.Swap.Swapped swapped) {
        token = swapped.token();
        return;
      }
      lost = true;
      throw new LeaseLostException("lifecycle: owner " + options.ownerId()
          + " lost the lease of partition " + Integer.toUnsignedString(partition)
          + ": the state object was changed by someone else");
    }

    private void release() {
      if (!leased || lost || options.dryRun()) {
        return;
      }
      try {
        state.ownerId = "";
        state.leaseUntilUnixMs = 0;
        state.updatedUnixMs = now();
        write(state);
      } catch (ObjlogException e) {
        // The lease expires by itself; the next pass resumes from the last checkpoint.
      }
    }
  }
}
