package dev.objlog.internal.writer;

import dev.objlog.RetentionResult;
import dev.objlog.Header;
import dev.objlog.IntegrityException;
import dev.objlog.InvalidArgumentException;
import dev.objlog.LogRecord;
import dev.objlog.LsnSpaceExhaustedException;
import dev.objlog.ObjlogException;
import dev.objlog.PartitionHead;
import dev.objlog.PartitionWriter;
import dev.objlog.RecordExceedsPendingBudgetException;
import dev.objlog.StaleWriterException;
import dev.objlog.CommitIndeterminateException;
import dev.objlog.TimestampOrderException;
import dev.objlog.WriterAbortedException;
import dev.objlog.WriterBackpressureException;
import dev.objlog.WriterClosedException;
import dev.objlog.WriterOptions;
import dev.objlog.WriterState;
import dev.objlog.AppendResult;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.Id128;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.format.segment.Codec;
import dev.objlog.format.segment.RawBlock;
import dev.objlog.format.segment.RawBlockBuilder;
import dev.objlog.format.segment.RecordHeader;
import dev.objlog.format.segment.SealedBlock;
import dev.objlog.format.segment.SegmentAssembler;
import dev.objlog.format.segment.SegmentEncoder;
import dev.objlog.format.segment.SegmentEncoderOptions;
import dev.objlog.format.segment.SegmentTrailer;
import dev.objlog.internal.Elapsed;
import dev.objlog.internal.LogRuntime;
import dev.objlog.internal.retention.RetentionApplier;
import dev.objlog.internal.catalog.FencedSession;
import dev.objlog.internal.catalog.PartitionCatalog;
import dev.objlog.internal.catalog.PublishResult;
import dev.objlog.internal.catalog.SegmentRefs;
import dev.objlog.store.CreateResult;
import dev.objlog.store.IndeterminateStoreException;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.StoreException;
import dev.objlog.store.Ticker;
import dev.objlog.store.TransientStoreException;
import java.io.ByteArrayOutputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The partition writer (PROTOCOLS.md §5.1–5.2): accepts records into the batch being built,
 * seals its blocks in parallel while it is still being built, streams them in order into the
 * segment's upload, cuts batches into segments, and commits them strictly in cut order, several at
 * once when several are ready (group commit).
 *
 * <p>The pipeline, per segment: {@code append} only frames the record into the open block of the
 * batch's {@link RawBlockBuilder} (no compression under the lock). A block that fills goes to the
 * {@link SealPool} (at most {@code sealParallelism} seals at once, on the sealing executor). Sealed
 * blocks come back in any order; the segment's single drainer writes them in block order through a
 * {@link SegmentAssembler} into the segment's {@link ObjectUpload}, which it opens at the first
 * block, so a segment's upload is well under way when it is cut. The cut seals the last partial
 * block; when that one is written, the drainer writes the index and trailer and completes the
 * upload, and the segment is ready for the publisher.
 *
 * <p>A streaming upload cannot be replayed once parts are sent, so every sealed block of a segment
 * is retained until its upload completes. A transient upload failure (while writing or
 * completing) aborts that upload and, after a backoff, starts the whole segment again under the
 * same key from the retained blocks (the assembler writes the same bytes again). Retained blocks,
 * and raw blocks waiting for or being sealed, are part of the segment's worst-case estimate, so
 * they are bounded by {@code maxPendingBytes} like the rest of the pending budget.
 *
 * <p>State lives under one lock: the optimistic next LSN and last timestamp, the batch being
 * built, the queue of cut segments in cut order, the committed head, and the terminal failure.
 * Each segment's upload state (sealed blocks, upload, drainer) is guarded by the segment's own
 * monitor, taken after the writer lock or alone, never the other way round. Background steps
 * (seal, drain, publish, batch-age timers) run on the sealing executor (seals; drains too when the
 * caller supplied it), the log's store I/O threads (drains, publishes: they block on the store) and
 * the scheduler (timers, backoffs), and never wait for one another. A single publisher run is active at a time.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class WriterEngine implements PartitionWriter {
  private static final double EMA_WEIGHT = 0.2;
  /**
   * The last LSN a record can be committed with: a head's next LSN must stay below the reserved
   * 2^64−1, so a segment may end at 2^64−3 at most (as in Go objlog).
   */
  static final long LAST_COMMITTABLE_LSN = -3L;

  private enum Stage { SEALING, UPLOADING, READY, PUBLISHING }

  /** One batch: being built while {@code active}, then a cut segment until committed or failed. */
  private static final class Segment {
    final long baseLsn;
    final byte[] uuid;
    final String key;
    final SegmentEncoderOptions encoderOptions;
    /** Guarded by the writer lock; used while the batch is active and at its cut. */
    final RawBlockBuilder builder;
    final CompletableFuture<PartitionHead> committed = new CompletableFuture<>();
    /**
     * Completed like {@code committed}, but only after it: {@code committed} completes the copies
     * handed to appenders synchronously, so whoever waits on this one (flush, close) wakes only once
     * every earlier append's future is complete. (Copies fire in reverse order of creation; a flush
     * waiting on a copy of {@code committed} could wake before an earlier append's copy completed.)
     */
    final CompletableFuture<PartitionHead> settled = new CompletableFuture<>();

    void complete(PartitionHead head) {
      committed.complete(head);
      settled.complete(head);
    }

    void completeExceptionally(Throwable cause) {
      committed.completeExceptionally(cause);
      settled.completeExceptionally(cause);
    }

    // Guarded by this segment's monitor.
    /** Sealed blocks by block index (null: not sealed yet); kept until the upload completes. */
    final ArrayList<@Nullable SealedBlock> sealed = new ArrayList<>();
    /** Blocks in the segment, known at the cut; -1 before. */
    long blockTotal = -1;
    /** A drainer is running (it alone touches {@code upload}, {@code assembler}, {@code emitted}). */
    boolean draining;
    /** A failed upload waits for its backoff; the scheduled retry restarts the drain. */
    boolean backingOff;
    /** The writer dropped this segment: stop, abort the upload, keep nothing. */
    boolean abandoned;
    /** Uploaded: the blocks are released. */
    boolean uploaded;
    @Nullable ObjectUpload upload;
    @Nullable SegmentAssembler assembler;
    int emitted;

    /** Ticker reading when the batch took its first record. */
    final long firstAcceptedNanos;
    long records;
    long rawBytes;
    long estimate;
    boolean cutWanted;
    @Nullable ScheduledFuture<?> ageTimer;
    // after the cut
    Stage stage = Stage.SEALING;
    /** Whether the batch was cut; {@code cutAtNanos} is its ticker reading then. */
    boolean isCut;
    long cutAtNanos;
    @Nullable LeafEntry entry;
    long size;
    int uploadAttempts;

    Segment(long baseLsn, byte[] uuid, String key, SegmentEncoderOptions encoderOptions,
        long firstAcceptedNanos) {
      this.baseLsn = baseLsn;
      this.uuid = uuid;
      this.key = key;
      this.encoderOptions = encoderOptions;
      this.builder = new RawBlockBuilder(encoderOptions.targetBlockSize());
      this.firstAcceptedNanos = firstAcceptedNanos;
    }

    /** The whole segment as uploaded, re-assembled from the retained blocks (for a key clash). */
    synchronized byte[] bytes() {
      ByteArrayOutputStream out = new ByteArrayOutputStream(Math.toIntExact(size));
      SegmentAssembler a = new SegmentAssembler(encoderOptions, out::write);
      for (SealedBlock b : sealed) {
        a.add(java.util.Objects.requireNonNull(b, "sealed block"));
      }
      a.finish();
      return out.toByteArray();
    }

    /** Bytes of the sealed blocks held. */
    long sealedBytes() {
      long n = 0;
      for (SealedBlock b : sealed) {
        if (b != null) {
          n += b.length();
        }
      }
      return n;
    }

    @Override
    public String toString() {
      return "segment " + key;
    }
  }

  private final LogRuntime runtime;
  private final int partition;
  private final WriterOptions options;
  private final FencedSession session;
  private final PartitionCatalog catalog;
  private final PartitionKeys keys;
  private final ObjectStore store;
  /** Wall time: only the creation time written into segments. */
  private final Clock clock;
  /** Elapsed time: deadlines, publish latency, batch ages. A wall-clock jump must not move them. */
  private final Ticker ticker;
  private final ScheduledExecutorService scheduler;
  private final Executor sealExecutor;
  private final Executor drainExecutor;
  private final SealPool sealPool;
  /**
   * Bytes of block content held by the pipeline: raw blocks waiting for or being sealed (64 +
   * raw size each) and sealed blocks retained until their upload completes. Always within the
   * pending budget (see the class comment); exposed for tests.
   */
  private final AtomicLong retainedBytes = new AtomicLong();
  private final byte[] writerTag;
  private final long epoch;
  private final WriterMeters meters;

  private final ReentrantLock lock = new ReentrantLock();
  /** Signalled whenever capacity frees up or the writer stops. */
  private final Condition changed = lock.newCondition();

  // Guarded by lock.
  private long nextLsn;
  private long lastTimestamp;
  private @Nullable Segment active;
  private final ArrayDeque<Segment> pending = new ArrayDeque<>();
  private long pendingBytes;
  private PartitionHead committed;
  private @Nullable ObjlogException failure;
  private boolean closed;
  private boolean released;
  private boolean publisherRunning;
  private CompletableFuture<PartitionHead> commitSignal = new CompletableFuture<>();
  private @Nullable CompletableFuture<PartitionHead> lastCut;
  private double latencyEmaNanos = -1;

  // Confined to the single active publisher run.
  private @Nullable List<Segment> retryGroup;
  /** Ticker reading when the publisher took the current group; its publish deadline counts from here. */
  private long groupTakenNanos;
  private int groupAttempts;

  private WriterEngine(LogRuntime runtime, int partition, WriterOptions options, FencedSession session) {
    this.runtime = runtime;
    this.partition = partition;
    this.options = options;
    this.session = session;
    this.catalog = session.catalog();
    this.keys = catalog.keys();
    this.store = runtime.store();
    this.clock = runtime.clock();
    this.ticker = runtime.ticker();
    this.scheduler = runtime.scheduler();
    Executor seal = options.pipeline().sealExecutor();
    this.sealExecutor = seal != null ? seal : scheduler;
    // Uploads and head swaps block on the store for a round trip or longer; on the log's store I/O
    // threads they do not hold the scheduler threads that seal blocks. A caller's sealExecutor
    // keeps draining uploads, as before.
    this.drainExecutor = seal != null ? seal : runtime.storeIo();
    WriterOptions.Pipeline p = options.pipeline();
    this.sealPool = new SealPool(sealExecutor, SealPool.resolveParallelism(p.sealParallelism()), p.codec(),
        p.zstdLevel(), p.hashAlgorithm(), e -> fail(new WriterClosedException(
            "writer: the executor refused to seal; was the log closed?", e), "executor"));
    this.writerTag = session.writerId().toBytes();
    this.epoch = session.writerEpoch();
    Head head = session.head().head();
    this.nextLsn = head.nextLsn();
    LeafEntry last = head.lastSegment();
    this.lastTimestamp = last != null ? last.maxTimestampMs() : Long.MIN_VALUE;
    this.committed = SegmentRefs.toPartitionHead(keys, head);
    this.meters = new WriterMeters(runtime.meters(), runtime.tags(partition), this,
        w -> w.gaugeSegments(), w -> w.gaugeBytes());
  }

  /**
   * Fences {@code partition} for a new writer and returns it.
   *
   * @throws ObjlogException if the takeover failed (see {@link PartitionCatalog#takeover})
   */
  public static WriterEngine open(LogRuntime runtime, int partition, WriterOptions options) {
    FencedSession session = runtime.catalog(partition).takeover(Id128.of(options.writerId()));
    return new WriterEngine(runtime, partition, options, session);
  }

  @Override
  public int partition() {
    return partition;
  }

  // ------------------------------------------------------------------ append and cut

  @Override
  public AppendResult append(LogRecord record) {
    int size = record.encodedSize();
    WriterOptions.BackpressurePolicy budget = options.backpressure();
    long alone = worstCase(1, size);
    if (alone > budget.maxPendingBytes()) {
      throw new RecordExceedsPendingBudgetException("a record of " + size + " encoded bytes needs up to "
          + alone + " bytes as a segment, over the pending budget of " + budget.maxPendingBytes() + " bytes");
    }
    List<RecordHeader> headers = recordHeaders(record);
    // A read-only view: the value is copied once, into the block, not cloned first.
    java.nio.ByteBuffer value = record.valueBuffer();
    lock.lock();
    try {
      while (true) {
        ensureAccepting();
        if (Long.compareUnsigned(nextLsn, LAST_COMMITTABLE_LSN) > 0) {
          throw new LsnSpaceExhaustedException("partition " + Integer.toUnsignedString(partition)
              + " has used its whole LSN space: LSN 2^64-3, the last a head can commit, was assigned");
        }
        if (record.timestampMs() < lastTimestamp) {
          throw new TimestampOrderException("timestamp " + record.timestampMs()
              + " precedes the partition's latest " + lastTimestamp + "; pass max(now, last)");
        }
        Segment batch = active;
        if (batch != null && !fits(batch, size)) {
          cutLocked(true, budget.failWhenFull());
          continue;
        }
        if (batch == null) {
          if (pendingBytes + alone > budget.maxPendingBytes()) {
            awaitCapacity(budget.failWhenFull());
            continue;
          }
          batch = newBatch();
        }
        long lsn = nextLsn;
        RawBlock full;
        try {
          full = batch.builder.append(lsn, record.timestampMs(), headers, value);
        } catch (InvalidArgumentException e) {
          throw e;
        } catch (RuntimeException e) {
          ObjlogException cause = new ObjlogException("writer: encoding a record failed: " + e.getMessage(), e);
          fail(cause, "encode");
          throw new WriterClosedException("writer failed while encoding", cause);
        }
        if (full != null) {
          dispatchSeal(batch, full);
          offerSpare(batch);
        }
        if (active == null) {
          active = batch;
          scheduleAge(batch);
        }
        nextLsn = lsn + 1;
        lastTimestamp = record.timestampMs();
        batch.records++;
        batch.rawBytes += size;
        batch.estimate = worstCase(batch.records, batch.rawBytes);
        meters.records.increment();
        meters.bytes.increment(size);
        CompletableFuture<PartitionHead> future = batch.committed.copy();
        if (batch.records >= options.batch().maxRecords() || batch.rawBytes >= options.batch().maxBytes()) {
          cutLocked(false, true);
        }
        return new AppendResult(partition, epoch, lsn, future);
      }
    } finally {
      lock.unlock();
    }
  }

  private static List<RecordHeader> recordHeaders(LogRecord record) {
    List<Header> headers = record.headers();
    if (headers.isEmpty()) {
      return List.of();
    }
    RecordHeader[] out = new RecordHeader[headers.size()];
    for (int i = 0; i < out.length; i++) {
      Header h = headers.get(i);
      out[i] = new RecordHeader(h.key(), h.value());
    }
    return List.of(out);
  }

  private boolean fits(Segment batch, int size) {
    WriterOptions.BatchPolicy policy = options.batch();
    return batch.records < policy.maxRecords()
        && batch.rawBytes + size <= policy.maxBytes()
        && pendingBytes + worstCase(batch.records + 1, batch.rawBytes + size)
            <= options.backpressure().maxPendingBytes();
  }

  private long worstCase(long records, long rawBytes) {
    WriterOptions.Pipeline p = options.pipeline();
    return SegmentEncoder.worstCaseSegmentSize(records, rawBytes, p.blockBytes(), p.codec());
  }

  private Segment newBatch() {
    byte[] uuid = new byte[16];
    do {
      runtime.options().random().nextBytes(uuid);
    } while (Id128.of(uuid).isZero());
    WriterOptions.Pipeline p = options.pipeline();
    SegmentEncoderOptions encoderOptions = new SegmentEncoderOptions(Integer.toUnsignedLong(partition),
        p.codec(), p.hashAlgorithm(), p.zstdLevel(), p.blockBytes(), clock.millis(), uuid, writerTag);
    Segment batch = new Segment(nextLsn, uuid, keys.segment(nextLsn, epoch, uuid), encoderOptions,
        ticker.read());
    offerSpare(batch);
    return batch;
  }

  /** Hands a raw buffer that sealing freed to the batch's builder, to save allocating one. */
  private void offerSpare(Segment batch) {
    byte[] spare = sealPool.takeSpare();
    if (spare != null) {
      batch.builder.recycle(spare);
    }
  }

  private void scheduleAge(Segment batch) {
    Duration delay = batchDelay();
    if (delay.isZero()) {
      return;
    }
    try {
      batch.ageTimer = scheduler.schedule(() -> onAge(batch), delay.toNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      // The log is closing; explicit cuts, flush and close still cut.
    }
  }

  /** The batch age limit now: fixed, or following the publish latency when adaptive. */
  Duration batchDelay() {
    WriterOptions.AdaptiveDelay adaptive = options.adaptiveDelay();
    Duration configured = options.batch().maxDelay();
    if (!adaptive.enabled()) {
      return configured;
    }
    long nanos = latencyEmaNanos < 0 ? configured.toNanos() : (long) (adaptive.multiplier() * latencyEmaNanos);
    nanos = Math.max(adaptive.min().toNanos(), Math.min(adaptive.max().toNanos(), nanos));
    return Duration.ofNanos(nanos);
  }

  private void onAge(Segment batch) {
    lock.lock();
    try {
      if (active == batch && failure == null) {
        cutLocked(false, true);
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void cut() {
    lock.lock();
    try {
      ensureAccepting();
      cutLocked(true, options.backpressure().failWhenFull());
    } finally {
      lock.unlock();
    }
  }

  /**
   * Cuts the active batch if the pending count allows it. Waiting (when {@code wait}) releases the
   * lock; without waiting, a cut that does not fit is remembered and done when capacity frees.
   *
   * @return whether no batch is left to cut
   */
  private boolean cutLocked(boolean wait, boolean failWhenFull) {
    while (true) {
      Segment batch = active;
      if (batch == null) {
        return true;
      }
      if (pending.size() < options.backpressure().maxPendingSegments()) {
        doCut(batch);
        return true;
      }
      if (!wait) {
        batch.cutWanted = true;
        return false;
      }
      awaitCapacity(failWhenFull);
      if (failure != null) {
        throw stopped();
      }
    }
  }

  private void awaitCapacity(boolean failWhenFull) {
    if (failWhenFull) {
      throw new WriterBackpressureException("writer of partition " + Integer.toUnsignedString(partition)
          + " has " + pending.size() + " segments (" + pendingBytes + " bytes) pending; retry later");
    }
    try {
      changed.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new WriterBackpressureException("interrupted while waiting for the writer's pending budget");
    }
  }

  private void doCut(Segment batch) {
    active = null;
    if (batch.ageTimer != null) {
      batch.ageTimer.cancel(false);
    }
    batch.cutAtNanos = ticker.read();
    batch.isCut = true;
    batch.stage = Stage.SEALING;
    pending.addLast(batch);
    pendingBytes += batch.estimate;
    lastCut = batch.settled;
    RawBlock last = java.util.Objects.requireNonNull(batch.builder.takeOpenBlock(), "a cut batch has records");
    synchronized (batch) {
      batch.blockTotal = batch.builder.blocksClosed();
    }
    dispatchSeal(batch, last);
  }

  // ------------------------------------------------------------------ seal, stream, complete

  /** Queues a closed block for sealing; its bytes count as retained until the upload completes. */
  private void dispatchSeal(Segment s, RawBlock raw) {
    retainedBytes.addAndGet(RawBlock.contentOffset() + raw.rawSize());
    try {
      sealPool.submit(() -> sealBlock(s, raw));
    } catch (RejectedExecutionException e) {
      retainedBytes.addAndGet(-(RawBlock.contentOffset() + raw.rawSize()));
      fail(new WriterClosedException("writer: the executor refused to seal a block of " + s
          + "; was the log closed?"), "executor");
    }
  }

  /** A seal slot's job: seal, then hand the block to the segment's drainer. */
  private void sealBlock(Segment s, RawBlock raw) {
    long rawBytes = RawBlock.contentOffset() + raw.rawSize();
    boolean skip;
    synchronized (s) {
      skip = s.abandoned;
    }
    if (skip) {
      retainedBytes.addAndGet(-rawBytes);
      return;
    }
    SealedBlock block;
    try {
      block = sealPool.seal(raw);
    } catch (RuntimeException e) {
      retainedBytes.addAndGet(-rawBytes);
      fail(new ObjlogException("writer: sealing a block of " + s + " failed: " + e.getMessage(), e), "seal");
      return;
    }
    retainedBytes.addAndGet(block.length() - rawBytes);
    boolean start;
    synchronized (s) {
      if (s.abandoned) {
        retainedBytes.addAndGet(-block.length());
        return;
      }
      int i = (int) block.index();
      while (s.sealed.size() <= i) {
        s.sealed.add(null);
      }
      s.sealed.set(i, block);
      start = claimDrain(s);
    }
    if (start) {
      startDrain(s);
    }
  }

  /** Under the segment's monitor: whether the caller became the drainer. */
  private static boolean claimDrain(Segment s) {
    if (s.draining || s.backingOff || s.uploaded) {
      return false;
    }
    s.draining = true;
    return true;
  }

  private void startDrain(Segment s) {
    try {
      drainExecutor.execute(() -> drain(s));
    } catch (RejectedExecutionException e) {
      synchronized (s) {
        s.draining = false;
      }
      fail(new WriterClosedException("writer: the executor refused to upload " + s
          + "; was the log closed?"), "executor");
    }
  }

  /**
   * The segment's drainer (one at a time): writes every sealed block that is next in line into
   * the upload, opening it first if needed; after the last block of a cut segment, completes it.
   * Returns when the next block is not sealed yet; the seal that produces it starts a new drain.
   */
  private void drain(Segment s) {
    while (true) {
      SealedBlock next;
      boolean last;
      synchronized (s) {
        if (s.abandoned) {
          s.draining = false;
          abortQuietly(takeUpload(s));
          return;
        }
        next = s.emitted < s.sealed.size() ? s.sealed.get(s.emitted) : null;
        last = next == null && s.blockTotal >= 0 && s.emitted == s.blockTotal;
        if (next == null && !last) {
          s.draining = false;
          return;
        }
      }
      try {
        if (s.upload == null) {
          s.uploadAttempts++;
          ObjectUpload upload = store.startUpload(s.key);
          synchronized (s) {
            s.upload = upload;
          }
          s.assembler = new SegmentAssembler(s.encoderOptions, upload::write);
        }
        SegmentAssembler assembler = java.util.Objects.requireNonNull(s.assembler, "assembler");
        if (next != null) {
          assembler.add(next);
          s.emitted++;
          continue;
        }
        complete(s, assembler);
        return;
      } catch (IndeterminateStoreException | TransientStoreException e) {
        if (!restartLater(s, e)) {
          return;
        }
      } catch (RuntimeException e) {
        ObjectUpload upload;
        synchronized (s) {
          s.draining = false;
          upload = takeUpload(s);
        }
        abortQuietly(upload);
        fail(e instanceof ObjlogException oe ? oe
            : new ObjlogException("writer: uploading " + s + " failed: " + e.getMessage(), e), "upload");
        return;
      }
    }
  }

  /** Under the segment's monitor: detaches the upload, for aborting outside. */
  private static @Nullable ObjectUpload takeUpload(Segment s) {
    ObjectUpload u = s.upload;
    s.upload = null;
    s.assembler = null;
    s.emitted = 0;
    return u;
  }

  private static void abortQuietly(@Nullable ObjectUpload upload) {
    if (upload == null) {
      return;
    }
    try {
      upload.abort();
    } catch (RuntimeException ignored) {
      // Staging debris is scrub's; the segment is retried or the writer has failed.
    }
  }

  /** Writes the index and trailer and makes the object visible, create-only. */
  private void complete(Segment s, SegmentAssembler assembler) {
    if (stopping()) {
      ObjectUpload upload;
      synchronized (s) {
        s.draining = false;
        upload = takeUpload(s);
      }
      abortQuietly(upload);
      return;
    }
    SegmentTrailer trailer = assembler.finish();
    s.size = trailer.totalSize();
    s.entry = new LeafEntry(trailer.baseLsn(), trailer.lastLsn(), trailer.minTimestampMs(),
        trailer.maxTimestampMs(), trailer.recordCount(), trailer.blockCount(), trailer.totalSize(),
        trailer.blockIndexOffset(), trailer.blockIndexLength(), trailer.codec().id(),
        trailer.hashAlgorithm().id(), trailer.segmentHash(), trailer.trailerHash(), epoch,
        Id128.of(s.uuid), Id128.of(writerTag));
    setStage(s, Stage.UPLOADING);
    ObjectUpload upload = java.util.Objects.requireNonNull(s.upload, "upload");
    CreateResult result = upload.complete();
    if (result instanceof CreateResult.AlreadyExists) {
      // Always compare, not only after a failure we saw: the adapter's own retries (Retrier.write)
      // repeat a create whose reply was lost, and the repeat answers "already exists" for our
      // own object. The key carries a random uuid, so equal bytes can only be ours.
      if (!Arrays.equals(store.get(s.key).bytes(), s.bytes())) {
        throw new IntegrityException("writer: segment key " + s.key
            + " already holds another object; segment uuids are random per segment, so the bucket"
            + " holds something this writer did not write");
      }
    }
    long released;
    synchronized (s) {
      s.upload = null;
      s.assembler = null;
      s.uploaded = true;
      s.draining = false;
      released = s.sealedBytes();
      s.sealed.clear();
      s.sealed.trimToSize();
    }
    retainedBytes.addAndGet(-released);
    if (s.isCut) {
      meters.segmentFinalize.record(Duration.ofNanos(ticker.read() - s.cutAtNanos));
    }
    setStage(s, Stage.READY);
    kickPublisher();
  }

  /**
   * After a transient failure: aborts the upload and schedules a restart of the whole segment
   * from its retained blocks after a backoff; fails the writer once the segment's finalize
   * deadline (counted from its cut) has passed.
   *
   * @return false: the drainer stops here
   */
  private boolean restartLater(Segment s, StoreException e) {
    ObjectUpload upload;
    synchronized (s) {
      upload = takeUpload(s);
      s.draining = false;
      s.backingOff = true;
    }
    abortQuietly(upload);
    if (stopping()) {
      return false;
    }
    long now = ticker.read();
    if (s.isCut && Elapsed.exceeded(s.cutAtNanos, now, options.timeouts().segmentFinalize())) {
      fail(new ObjlogException("writer: uploading " + s + " kept failing for "
          + Duration.ofNanos(now - s.cutAtNanos) + " since its cut, past the segment finalize timeout of "
          + options.timeouts().segmentFinalize() + "; it was not committed", e), "upload");
      return false;
    }
    try {
      scheduler.schedule(() -> endBackoff(s), backoffMillis(s.uploadAttempts), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException rejected) {
      fail(new WriterClosedException("writer: the scheduler refused an upload retry; was the log closed?", e),
          "executor");
    }
    return false;
  }

  private void endBackoff(Segment s) {
    boolean start;
    synchronized (s) {
      s.backingOff = false;
      start = claimDrain(s);
    }
    if (start) {
      startDrain(s); // on the store I/O threads: the retry waits on the store again
    }
  }

  /** Drops a segment's pipeline state: no more seals, the upload aborted, its blocks released. */
  private void abandon(Segment s) {
    ObjectUpload upload = null;
    long released;
    synchronized (s) {
      if (s.abandoned) {
        return;
      }
      s.abandoned = true;
      if (!s.draining) {
        upload = takeUpload(s);
      }
      released = s.sealedBytes();
      s.sealed.clear();
    }
    retainedBytes.addAndGet(-released);
    abortQuietly(upload);
  }

  /** Bytes of raw and sealed blocks the pipeline holds now (tests). */
  long retainedBytes() {
    return retainedBytes.get();
  }

  private void setStage(Segment s, Stage stage) {
    lock.lock();
    try {
      s.stage = stage;
    } finally {
      lock.unlock();
    }
  }

  private boolean stopping() {
    return failureNow() != null;
  }

  private @Nullable ObjlogException failureNow() {
    lock.lock();
    try {
      return failure;
    } finally {
      lock.unlock();
    }
  }

  private static long backoffMillis(int attempt) {
    return Math.min(1000L, 10L << Math.min(attempt - 1, 10));
  }

  // ------------------------------------------------------------------ publish

  private void kickPublisher() {
    lock.lock();
    try {
      if (publisherRunning || failure != null) {
        return;
      }
      Segment first = pending.peekFirst();
      if (first == null || first.stage != Stage.READY) {
        return;
      }
      publisherRunning = true;
    } finally {
      lock.unlock();
    }
    try {
      runtime.storeIo().execute(this::publishLoop);
    } catch (RejectedExecutionException e) {
      fail(new WriterClosedException("writer: the scheduler refused to publish; was the log closed?"), "executor");
    }
  }

  /**
   * Continues a publisher after its backoff on the store I/O threads, not on the scheduler that
   * seals blocks: the retried head swap waits on the store. When the log is closing and the pool
   * refuses, the loop runs here and finds the writer stopping.
   */
  private void resumePublishing() {
    try {
      runtime.storeIo().execute(this::publishLoop);
    } catch (RejectedExecutionException e) {
      publishLoop();
    }
  }

  /** Every ready segment at the front of the queue, in cut order, marked publishing; or null. */
  private @Nullable List<Segment> takeReadyGroup() {
    lock.lock();
    try {
      List<Segment> group = new ArrayList<>();
      if (failure == null) {
        for (Segment s : pending) {
          if (s.stage != Stage.READY) {
            break;
          }
          group.add(s);
        }
      }
      if (group.isEmpty()) {
        publisherRunning = false;
        return null;
      }
      for (Segment s : group) {
        s.stage = Stage.PUBLISHING;
      }
      return group;
    } finally {
      lock.unlock();
    }
  }

  private void publishLoop() {
    while (true) {
      List<Segment> group = retryGroup;
      retryGroup = null;
      if (group != null) {
        ObjlogException stop = failureNow();
        if (stop != null) {
          failGroup(group, stop);
          finishPublisher();
          return;
        }
      }
      if (group == null) {
        group = takeReadyGroup();
        if (group == null) {
          // A segment may have become ready between the check and the flag being cleared.
          kickPublisher();
          return;
        }
        groupTakenNanos = ticker.read();
        groupAttempts = 0;
      }
      List<LeafEntry> entries = new ArrayList<>(group.size());
      for (Segment s : group) {
        entries.add(s.entry);
      }
      groupAttempts++;
      long start = ticker.read();
      PublishResult result;
      try {
        result = session.publish(entries);
      } catch (TransientStoreException e) {
        retryPublish(group, e);
        return;
      } catch (RuntimeException e) {
        ObjlogException cause = e instanceof ObjlogException oe ? oe
            : new ObjlogException("writer: publish failed: " + e.getMessage(), e);
        fail(cause, kind(cause));
        failGroup(group, cause);
        finishPublisher();
        return;
      }
      onCommitted(group, result, Duration.ofNanos(ticker.read() - start));
    }
  }

  /** Schedules another attempt with the same group; false (and the writer failed) if out of time. */
  private boolean retryPublish(List<Segment> group, TransientStoreException e) {
    ObjlogException stop = failureNow();
    long now = ticker.read();
    if (stop == null && Elapsed.exceeded(groupTakenNanos, now, options.timeouts().catalogPublish())) {
      stop = new ObjlogException("writer: committing " + group.size() + " segment(s) from LSN "
          + Long.toUnsignedString(group.get(0).baseLsn) + " kept failing for "
          + Duration.ofNanos(now - groupTakenNanos) + ", past the catalog publish timeout of "
          + options.timeouts().catalogPublish() + "; they were not committed", e);
      fail(stop, "publish");
    }
    if (stop != null) {
      failGroup(group, stop);
      finishPublisher();
      return false;
    }
    retryGroup = group;
    try {
      scheduler.schedule(this::resumePublishing, backoffMillis(groupAttempts), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException rejected) {
      ObjlogException cause = new WriterClosedException(
          "writer: the scheduler refused a publish retry; was the log closed?", e);
      retryGroup = null;
      fail(cause, "executor");
      failGroup(group, cause);
      finishPublisher();
      return false;
    }
    return true;
  }

  private void finishPublisher() {
    lock.lock();
    try {
      publisherRunning = false;
    } finally {
      lock.unlock();
    }
  }

  private static String kind(ObjlogException e) {
    if (e instanceof StaleWriterException) {
      return "stale_writer";
    }
    if (e instanceof CommitIndeterminateException) {
      return "commit_indeterminate";
    }
    return "publish";
  }

  private void onCommitted(List<Segment> group, PublishResult result, Duration publishTime) {
    PartitionHead head = SegmentRefs.toPartitionHead(keys, result.head());
    CompletableFuture<PartitionHead> signal;
    lock.lock();
    try {
      for (Segment s : group) {
        pending.remove(s);
        pendingBytes -= s.estimate;
      }
      if (Long.compareUnsigned(head.generation(), committed.generation()) > 0) {
        committed = head;
      }
      long nanos = publishTime.toNanos();
      latencyEmaNanos = latencyEmaNanos < 0 ? nanos : EMA_WEIGHT * nanos + (1 - EMA_WEIGHT) * latencyEmaNanos;
      signal = commitSignal;
      if (failure == null && !released) {
        commitSignal = new CompletableFuture<>();
      }
      changed.signalAll();
      Segment batch = active;
      if (batch != null && failure == null
          && (batch.cutWanted || batch.records >= options.batch().maxRecords()
              || batch.rawBytes >= options.batch().maxBytes())) {
        cutLocked(false, true);
      }
    } finally {
      lock.unlock();
    }
    meters.commit(publishTime, group.size(), Duration.ofNanos(ticker.read() - group.get(0).firstAcceptedNanos));
    runtime.commitBus().published(catalog.headKey(), session.head());
    for (Segment s : group) {
      s.complete(head);
    }
    signal.complete(head);
  }

  private void failGroup(List<Segment> group, ObjlogException cause) {
    lock.lock();
    try {
      for (Segment s : group) {
        if (pending.remove(s)) {
          pendingBytes -= s.estimate;
        }
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    for (Segment s : group) {
      s.completeExceptionally(cause);
    }
  }

  // ------------------------------------------------------------------ failure, flush, close

  /**
   * Makes the writer terminal with {@code cause} (the first cause wins): fails the batch being
   * built and every cut segment not being published, and wakes every waiter.
   */
  private void fail(ObjlogException cause, String kind) {
    List<Segment> dropped = new ArrayList<>();
    ObjlogException first;
    CompletableFuture<PartitionHead> signal;
    boolean firstFailure;
    lock.lock();
    try {
      firstFailure = failure == null;
      if (firstFailure) {
        failure = cause;
        closed = true;
      }
      first = failure;
      Segment batch = active;
      if (batch != null) {
        active = null;
        if (batch.ageTimer != null) {
          batch.ageTimer.cancel(false);
        }
        dropped.add(batch);
      }
      for (var it = pending.iterator(); it.hasNext(); ) {
        Segment s = it.next();
        if (s.stage != Stage.PUBLISHING) {
          it.remove();
          pendingBytes -= s.estimate;
          dropped.add(s);
        }
      }
      signal = commitSignal;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    for (Segment s : dropped) {
      abandon(s);
    }
    if (firstFailure) {
      meters.failure(kind);
      release();
    }
    for (Segment s : dropped) {
      s.completeExceptionally(first);
    }
    signal.completeExceptionally(first);
  }

  private void release() {
    lock.lock();
    try {
      if (released) {
        return;
      }
      released = true;
    } finally {
      lock.unlock();
    }
    meters.close();
    sealPool.close();
  }

  private void ensureAccepting() {
    if (failure != null) {
      throw stopped();
    }
    if (closed) {
      throw new WriterClosedException("the writer of partition " + Integer.toUnsignedString(partition)
          + " is closed");
    }
  }

  private WriterClosedException stopped() {
    ObjlogException cause = failure;
    if (cause instanceof WriterAbortedException) {
      return new WriterAbortedException("the writer of partition " + Integer.toUnsignedString(partition)
          + " was aborted");
    }
    return cause == null
        ? new WriterClosedException("the writer of partition " + Integer.toUnsignedString(partition) + " is closed")
        : new WriterClosedException("the writer of partition " + Integer.toUnsignedString(partition)
            + " failed: " + cause.getMessage(), cause);
  }

  @Override
  public CompletableFuture<PartitionHead> flushAsync() {
    lock.lock();
    try {
      ensureAccepting();
      return flushLocked();
    } catch (ObjlogException e) {
      return CompletableFuture.failedFuture(e);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Never blocks, so that {@code flushAsync} is safe on any thread, the log's scheduler threads
   * (a commit callback) included: when the pending budget has no room for the batch being built,
   * its cut is remembered (the next commit that frees room does it) and the flush follows that
   * batch, which is the last one and commits after every earlier one.
   */
  private CompletableFuture<PartitionHead> flushLocked() {
    Segment building = active;
    if (building != null && !cutLocked(false, true)) {
      return building.settled.copy();
    }
    CompletableFuture<PartitionHead> last = lastCut;
    if (last == null || (last.isDone() && !last.isCompletedExceptionally())) {
      return CompletableFuture.completedFuture(committed);
    }
    return last.copy();
  }

  @Override
  public PartitionHead flush() {
    return await(flushAsync());
  }

  private static PartitionHead await(CompletableFuture<PartitionHead> future) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new WriterBackpressureException("interrupted while waiting for the flush to commit");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof ObjlogException oe) {
        throw oe;
      }
      throw new ObjlogException("flush failed: " + cause, cause);
    }
  }

  @Override
  public void close() {
    CompletableFuture<PartitionHead> drained;
    lock.lock();
    try {
      if (closed) {
        return;
      }
      try {
        drained = flushLocked();
      } catch (ObjlogException e) {
        drained = CompletableFuture.failedFuture(e);
      }
      closed = true;
    } finally {
      lock.unlock();
    }
    try {
      await(drained);
    } finally {
      CompletableFuture<PartitionHead> signal;
      lock.lock();
      try {
        signal = commitSignal;
      } finally {
        lock.unlock();
      }
      release();
      signal.completeExceptionally(new WriterClosedException("the writer of partition "
          + Integer.toUnsignedString(partition) + " is closed"));
    }
  }

  @Override
  public void abort() {
    fail(new WriterAbortedException("the writer of partition " + Integer.toUnsignedString(partition)
        + " was aborted; uncommitted records were dropped"), "aborted");
  }

  @Override
  public WriterState state() {
    lock.lock();
    try {
      Segment batch = active;
      return new WriterState(committed, nextLsn, batch == null ? 0 : batch.records, pending.size(),
          pendingBytes + (batch == null ? 0 : batch.estimate), closed, failure);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public CompletableFuture<PartitionHead> nextCommit() {
    lock.lock();
    try {
      return commitSignal.copy();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public RetentionResult applyRetention() {
    lock.lock();
    try {
      ensureAccepting();
    } finally {
      lock.unlock();
    }
    RetentionResult result;
    try {
      result = RetentionApplier.apply(runtime, session);
    } catch (StaleWriterException e) {
      fail(e, "stale_writer");
      throw e;
    }
    if (result.applied()) {
      PartitionHead head = result.head();
      lock.lock();
      try {
        if (Long.compareUnsigned(head.generation(), committed.generation()) > 0) {
          committed = head;
        }
      } finally {
        lock.unlock();
      }
      runtime.commitBus().published(catalog.headKey(), session.head());
    }
    return result;
  }

  @Override
  public Optional<ObjlogException> failure() {
    lock.lock();
    try {
      return Optional.ofNullable(failure);
    } finally {
      lock.unlock();
    }
  }

  private double gaugeSegments() {
    lock.lock();
    try {
      return pending.size();
    } finally {
      lock.unlock();
    }
  }

  private double gaugeBytes() {
    lock.lock();
    try {
      return pendingBytes;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public String toString() {
    return "PartitionWriter[" + catalog.headKey() + ", epoch " + Long.toUnsignedString(epoch) + "]";
  }
}
