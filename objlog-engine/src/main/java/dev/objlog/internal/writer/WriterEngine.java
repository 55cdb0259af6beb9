package dev.objlog.internal.writer;

import dev.objlog.AppendResult;
import dev.objlog.LogRecord;
import dev.objlog.ObjlogException;
import dev.objlog.PartitionHead;
import dev.objlog.PartitionWriter;
import dev.objlog.RetentionResult;
import dev.objlog.StaleWriterException;
import dev.objlog.WriterAbortedException;
import dev.objlog.WriterBackpressureException;
import dev.objlog.WriterClosedException;
import dev.objlog.WriterOptions;
import dev.objlog.WriterState;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.Id128;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.internal.LogRuntime;
import dev.objlog.internal.catalog.FencedSession;
import dev.objlog.internal.catalog.PartitionCatalog;
import dev.objlog.internal.retention.RetentionApplier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The partition writer (PROTOCOLS.md §5.1–5.2): a thin front over its three stages, each in its own
 * type. The {@link Batcher} accepts records into the batch being built, cuts batches into segments
 * and applies backpressure; the {@link SegmentPipeline} seals each segment's blocks in parallel and
 * streams them in order into its upload, restarting an upload that failed; the {@link Publisher}
 * commits ready segments strictly in cut order, several in one head swap when several are ready.
 * The package comment draws the stages a segment goes through.
 *
 * <p>This class wires them together and owns what spans them: the writer's terminal failure (the
 * first cause wins; it fails the batch being built and every segment not being published, and
 * wakes every waiter), flush, close, abort, retention and the state snapshot.
 *
 * <p>State lives under one writer lock, shared by the batcher and the publisher: the optimistic
 * next LSN and last timestamp, the batch being built, the queue of cut segments in cut order, the
 * committed head, and the terminal failure. Each segment's upload state is guarded by the
 * segment's own monitor, taken after the writer lock or alone, never the other way round.
 * Background steps (seal, drain, publish, batch-age timers) run on the sealing executor (seals;
 * drains too when the caller supplied it), the log's store I/O threads (drains, publishes: they
 * block on the store) and the scheduler (timers, backoffs), and never wait for one another.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class WriterEngine implements PartitionWriter {
  private final LogRuntime runtime;
  private final int partition;
  private final FencedSession session;
  private final PartitionCatalog catalog;
  private final long epoch;
  private final WriterMeters meters;
  private final ReentrantLock lock = new ReentrantLock();
  private final SegmentPipeline pipeline;
  private final Batcher batcher;
  private final Publisher publisher;

  // Guarded by lock.
  private boolean released;

  private WriterEngine(LogRuntime runtime, int partition, WriterOptions options, FencedSession session) {
    this.runtime = runtime;
    this.partition = partition;
    this.session = session;
    this.catalog = session.catalog();
    this.epoch = session.writerEpoch();
    byte[] writerTag = session.writerId().toBytes();
    Executor seal = options.pipeline().sealExecutor();
    Executor sealExecutor = seal != null ? seal : runtime.scheduler();
    // Uploads and head swaps block on the store for a round trip or longer; on the log's store I/O
    // threads they do not hold the scheduler threads that seal blocks. A caller's sealExecutor
    // keeps draining uploads, as before.
    Executor drainExecutor = seal != null ? seal : runtime.storeIo();
    Head head = session.head().head();
    LeafEntry last = head.lastSegment();
    this.meters = new WriterMeters(runtime.meters(), runtime.tags(partition), this,
        w -> w.gaugeSegments(), w -> w.gaugeBytes());
    this.pipeline = new SegmentPipeline(runtime.store(), runtime.ticker(), runtime.scheduler(), sealExecutor,
        drainExecutor, options, epoch, writerTag, meters, lock, this::fail, this::failureNow,
        this::onReady, runtime.sealResources());
    this.batcher = new Batcher(partition, epoch, writerTag, options, catalog.keys(), runtime.options().random(),
        runtime.clock(), runtime.ticker(), runtime.scheduler(), pipeline, meters, this::fail, lock,
        lock.newCondition(), WriterReservation.open(runtime.memory(), runtime.streamId(), partition, options), head.nextLsn(), last != null ? last.maxTimestampMs() : Long.MIN_VALUE);
    this.publisher = new Publisher(session, catalog.keys(), runtime.commitBus(), runtime.storeIo(),
        runtime.scheduler(), runtime.ticker(), options.timeouts(), meters, batcher, lock, this::fail);
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

  @Override
  public AppendResult append(LogRecord record) {
    return batcher.append(record);
  }

  @Override
  public void cut() {
    batcher.cut();
  }

  /** The batch age limit now: fixed, or adaptive ({@link FlushDelay}) (tests). */
  Duration batchDelay() {
    lock.lock();
    try {
      return batcher.batchDelay();
    } finally {
      lock.unlock();
    }
  }

  /** Bytes of raw and sealed blocks the pipeline holds now (tests). */
  long retainedBytes() {
    return pipeline.retainedBytes();
  }

  /** A segment's upload completed: the publisher may have a group to commit. */
  private void onReady(Segment s) {
    publisher.kick();
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
      firstFailure = batcher.failLocked(cause, dropped);
      first = batcher.failureLocked();
      signal = publisher.signalLocked();
    } finally {
      lock.unlock();
    }
    for (Segment s : dropped) {
      pipeline.abandon(s);
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

  private @Nullable ObjlogException failureNow() {
    return batcher.failureNow();
  }

  private void release() {
    lock.lock();
    try {
      if (released) {
        return;
      }
      released = true;
      publisher.retireLocked();
    } finally {
      lock.unlock();
    }
    meters.close();
  }

  @Override
  public CompletableFuture<PartitionHead> flushAsync() {
    lock.lock();
    try {
      batcher.ensureAccepting();
      return batcher.flushLocked(publisher.committedLocked());
    } catch (ObjlogException e) {
      return CompletableFuture.failedFuture(e);
    } finally {
      lock.unlock();
    }
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
      if (batcher.isClosedLocked()) {
        return;
      }
      try {
        drained = batcher.flushLocked(publisher.committedLocked());
      } catch (ObjlogException e) {
        drained = CompletableFuture.failedFuture(e);
      }
      batcher.closeLocked();
    } finally {
      lock.unlock();
    }
    try {
      await(drained);
    } finally {
      CompletableFuture<PartitionHead> signal;
      lock.lock();
      try {
        signal = publisher.signalLocked();
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
      return batcher.stateLocked(publisher.committedLocked());
    } finally {
      lock.unlock();
    }
  }

  @Override
  public CompletableFuture<PartitionHead> nextCommit() {
    lock.lock();
    try {
      return publisher.signalLocked().copy();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public RetentionResult applyRetention() {
    lock.lock();
    try {
      batcher.ensureAccepting();
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
      lock.lock();
      try {
        publisher.adoptLocked(result.head());
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
      return Optional.ofNullable(batcher.failureLocked());
    } finally {
      lock.unlock();
    }
  }

  // The gauges are registered before the batcher exists; until then nothing is pending.
  private double gaugeSegments() {
    Batcher b = batcher;
    if (b == null) {
      return 0;
    }
    lock.lock();
    try {
      return b.pendingSegmentsLocked();
    } finally {
      lock.unlock();
    }
  }

  private double gaugeBytes() {
    Batcher b = batcher;
    if (b == null) {
      return 0;
    }
    lock.lock();
    try {
      return b.pendingBytesLocked();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public String toString() {
    return "PartitionWriter[" + catalog.headKey() + ", epoch " + Long.toUnsignedString(epoch) + "]";
  }
}
