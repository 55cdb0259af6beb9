package dev.objlog.internal.writer;

import dev.objlog.IntegrityException;
import dev.objlog.ObjlogException;
import dev.objlog.WriterClosedException;
import dev.objlog.WriterDeadlineExceededException;
import dev.objlog.WriterOptions;
import dev.objlog.format.catalog.Id128;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.segment.RawBlock;
import dev.objlog.format.segment.SealedBlock;
import dev.objlog.format.segment.SegmentAssembler;
import dev.objlog.format.segment.SegmentTrailer;
import dev.objlog.store.CreateResult;
import dev.objlog.store.IndeterminateStoreException;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.StoreException;
import dev.objlog.store.Ticker;
import dev.objlog.store.TransientStoreException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The writer's middle stage: seals a segment's blocks in parallel (at most {@code
 * sealParallelism} at once, on the sealing executor, through the {@link SealPool}), streams them in
 * block order through a {@link SegmentAssembler} into the segment's {@link ObjectUpload} (opened at
 * the first sealed block, so an upload is well under way when its segment is cut), and after the
 * cut's last block writes the index and trailer and completes the upload create-only. Then the
 * segment is ready and the publisher hears of it.
 *
 * <p>A streaming upload cannot be replayed once parts are sent, so every sealed block of a segment
 * is retained until its upload completes. A transient failure (while writing or completing) aborts
 * the upload and, after a backoff, restarts the whole segment under the same key from the retained
 * blocks (the assembler writes the same bytes again), until the segment finalize deadline counted
 * from its cut ({@link WriterDeadlineExceededException}). Raw blocks waiting for or being sealed,
 * and sealed blocks retained, are counted in {@link #retainedBytes} and are within the segment's
 * worst-case estimate, which the batcher bounds by the pending budget.
 *
 * <p>Each segment has a single drainer at a time; sealed blocks come back in any order and the
 * drainer writes the next in line. Drains run on the drain executor (the log's store I/O threads,
 * or the caller's sealing executor), backoffs on the scheduler; nothing here waits for another
 * background step.
 *
 * <p>Thread-safety: safe for concurrent use. A segment's upload state is guarded by its monitor;
 * its stage is set under the writer lock.
 */
final class SegmentPipeline {
  private final ObjectStore store;
  private final Ticker ticker;
  private final ScheduledExecutorService scheduler;
  private final Executor drainExecutor;
  private final SealPool sealPool;
  private final WriterOptions.Timeouts timeouts;
  private final long epoch;
  private final byte[] writerTag;
  private final WriterMeters meters;
  private final ReentrantLock lock;
  private final BiConsumer<ObjlogException, String> fail;
  private final Supplier<@Nullable ObjlogException> failure;
  private final Consumer<Segment> onReady;
  /**
   * Bytes of block content held by the pipeline: raw blocks waiting for or being sealed (64 +
   * raw size each) and sealed blocks retained until their upload completes.
   */
  private final AtomicLong retainedBytes = new AtomicLong();

  SegmentPipeline(ObjectStore store, Ticker ticker, ScheduledExecutorService scheduler,
      Executor sealExecutor, Executor drainExecutor, WriterOptions options, long epoch, byte[] writerTag,
      WriterMeters meters, ReentrantLock lock, BiConsumer<ObjlogException, String> fail,
      Supplier<@Nullable ObjlogException> failure, Consumer<Segment> onReady, SealResources sealResources) {
    this.store = store;
    this.ticker = ticker;
    this.scheduler = scheduler;
    this.drainExecutor = drainExecutor;
    this.timeouts = options.timeouts();
    this.epoch = epoch;
    this.writerTag = writerTag;
    this.meters = meters;
    this.lock = lock;
    this.fail = fail;
    this.failure = failure;
    this.onReady = onReady;
    WriterOptions.Pipeline p = options.pipeline();
    this.sealPool = new SealPool(sealExecutor, SealPool.resolveParallelism(p.sealParallelism()), p.codec(),
        p.zstdLevel(), p.hashAlgorithm(), p.blockBytes(), sealResources, e -> fail.accept(new WriterClosedException(
            "writer: the executor refused to seal; was the log closed?", e), "executor"));
  }

  /**
   * Hands a whole-block buffer that sealing freed (the log's spares) to the batch's builder, to
   * save allocating one: for the block the next record opens.
   */
  void offerSpare(Segment batch) {
    byte[] spare = sealPool.takeSpare();
    if (spare != null) {
      batch.builder.recycle(spare);
    }
  }

  /**
   * At the cut: gives the log's spares back the buffer the batch's builder was offered and did
   * not use, so that a pending segment does not hold a block of heap until it commits.
   */
  void reclaimSpare(Segment batch) {
    byte[] spare = batch.builder.takeSpare();
    if (spare != null) {
      sealPool.offerSpare(spare);
    }
  }

  /** At the cut: records the segment's block count and queues its last (partial) block. */
  void sealLast(Segment s, RawBlock last, long blockTotal) {
    synchronized (s) {
      s.blockTotal = blockTotal;
    }
    seal(s, last);
  }

  /** Queues a closed block for sealing; its bytes count as retained until the upload completes. */
  void seal(Segment s, RawBlock raw) {
    retainedBytes.addAndGet(RawBlock.contentOffset() + raw.rawSize());
    try {
      sealPool.submit(() -> sealBlock(s, raw));
    } catch (RejectedExecutionException e) {
      retainedBytes.addAndGet(-(RawBlock.contentOffset() + raw.rawSize()));
      fail.accept(new WriterClosedException("writer: the executor refused to seal a block of " + s
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
      fail.accept(new ObjlogException("writer: sealing a block of " + s + " failed: " + e.getMessage(), e), "seal");
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
      fail.accept(new WriterClosedException("writer: the executor refused to upload " + s
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
        SegmentAssembler assembler = Objects.requireNonNull(s.assembler, "assembler");
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
        fail.accept(e instanceof ObjlogException oe ? oe
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
    if (failure.get() != null) {
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
    setStage(s, Segment.Stage.UPLOADING);
    ObjectUpload upload = Objects.requireNonNull(s.upload, "upload");
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
    setStage(s, Segment.Stage.READY);
    onReady.accept(s);
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
    if (failure.get() != null) {
      return false;
    }
    restartStage(s);
    if (s.isCut) {
      WriterDeadlineExceededException late = RetryBudget.check(
          WriterDeadlineExceededException.Deadline.SEGMENT_FINALIZE, timeouts.segmentFinalize(),
          s.cutAtNanos, ticker.read(), elapsed -> "writer: uploading " + s + " kept failing for " + elapsed
              + " since its cut, past the segment finalize timeout of " + timeouts.segmentFinalize()
              + "; it was not committed", e);
      if (late != null) {
        fail.accept(late, "upload");
        return false;
      }
    }
    try {
      scheduler.schedule(() -> endBackoff(s), RetryBudget.backoffMillis(s.uploadAttempts), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException rejected) {
      fail.accept(new WriterClosedException("writer: the scheduler refused an upload retry; was the log closed?",
          e), "executor");
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
  void abandon(Segment s) {
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

  /** A failed completion streams the segment again: back to SEALING (the stage model). */
  private void restartStage(Segment s) {
    lock.lock();
    try {
      if (s.stage == Segment.Stage.UPLOADING) {
        s.stage = Segment.Stage.SEALING;
      }
    } finally {
      lock.unlock();
    }
  }

  private void setStage(Segment s, Segment.Stage stage) {
    lock.lock();
    try {
      s.stage = stage;
    } finally {
      lock.unlock();
    }
  }
}
