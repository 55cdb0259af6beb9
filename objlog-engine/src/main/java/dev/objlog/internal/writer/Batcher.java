package dev.objlog.internal.writer;

import dev.objlog.AppendResult;
import dev.objlog.Header;
import dev.objlog.InvalidArgumentException;
import dev.objlog.LogRecord;
import dev.objlog.LsnSpaceExhaustedException;
import dev.objlog.MemoryBudget;
import dev.objlog.ObjlogException;
import dev.objlog.PartitionHead;
import dev.objlog.RecordExceedsPendingBudgetException;
import dev.objlog.TimestampOrderException;
import dev.objlog.WriterAbortedException;
import dev.objlog.WriterBackpressureException;
import dev.objlog.WriterClosedException;
import dev.objlog.WriterOptions;
import dev.objlog.WriterState;
import dev.objlog.format.catalog.Id128;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.format.segment.RawBlock;
import dev.objlog.format.segment.RecordHeader;
import dev.objlog.format.segment.SegmentEncoder;
import dev.objlog.format.segment.SegmentEncoderOptions;
import dev.objlog.internal.memory.MemoryPool;
import dev.objlog.store.Ticker;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * The writer's front stage: accepts records (LSN assignment, timestamp order, LSN exhaustion) into
 * the batch being built, cuts batches into segments by records, raw bytes or age (fixed, or
 * following the persist time and the append rate when adaptive: {@link FlushDelay}), and applies
 * backpressure over the cut segments not yet committed ({@code maxPendingSegments}, {@code
 * maxPendingBytes} worst-case bytes, the batch being built included). Framing a record is all
 * {@code append} does under the lock; full blocks and the cut's last block go to the {@link
 * SegmentPipeline}.
 *
 * <p>The same worst-case bytes (cut segments plus the batch being built) are held in the writer's
 * account of the shared {@link MemoryPool}: it grows before a record is framed and shrinks as
 * segments commit or fail; the account closes (returning its reservation) once the writer is closed
 * or failed and nothing of it is pending. When the pool cannot lend more, a batch being built is
 * cut first (its bytes are already held) and a new batch waits for the pool, or fails with {@code
 * failWhenFull}, like the per-writer limit.
 *
 * <p>It also keeps the queue of cut segments in cut order, which the {@link Publisher} takes ready
 * groups from and the writer's terminal failure empties, and the writer's accept gate (closed,
 * failed).
 *
 * <p>Thread-safety: safe for concurrent use. Its state is guarded by the writer lock it is given
 * (shared with the publisher); methods named {@code ...Locked} expect the caller to hold it.
 */
final class Batcher {
  /**
   * The last LSN a record can be committed with: a head's next LSN must stay below the reserved
   * 2^64−1, so a segment may end at 2^64−3 at most (as in Go objlog).
   */
  static final long LAST_COMMITTABLE_LSN = -3L;

  private final int partition;
  private final long epoch;
  private final byte[] writerTag;
  private final WriterOptions options;
  private final PartitionKeys keys;
  private final RandomGenerator random;
  /** Wall time: only the creation time written into segments. */
  private final Clock clock;
  private final Ticker ticker;
  private final ScheduledExecutorService scheduler;
  private final SegmentPipeline pipeline;
  private final WriterMeters meters;
  private final BiConsumer<ObjlogException, String> fail;
  private final ReentrantLock lock;
  /** Signalled whenever capacity frees up or the writer stops. */
  private final Condition changed;
  /** This writer's share of the log's memory budget. */
  private final MemoryPool.Account memory;

  // Guarded by lock.
  private long nextLsn;
  private long lastTimestamp;
  private @Nullable Segment active;
  private final ArrayDeque<Segment> pending = new ArrayDeque<>();
  private long pendingBytes;
  private @Nullable ObjlogException failure;
  private boolean closed;
  private @Nullable CompletableFuture<PartitionHead> lastCut;
  private final FlushDelay flushDelay;

  Batcher(int partition, long epoch, byte[] writerTag, WriterOptions options, PartitionKeys keys,
      RandomGenerator random, Clock clock, Ticker ticker, ScheduledExecutorService scheduler,
      SegmentPipeline pipeline, WriterMeters meters, BiConsumer<ObjlogException, String> fail,
      ReentrantLock lock, Condition changed, MemoryPool.Account memory, long nextLsn, long lastTimestamp) {
    this.partition = partition;
    this.epoch = epoch;
    this.writerTag = writerTag;
    this.options = options;
    this.keys = keys;
    this.random = random;
    this.clock = clock;
    this.ticker = ticker;
    this.scheduler = scheduler;
    this.pipeline = pipeline;
    this.meters = meters;
    this.fail = fail;
    this.lock = lock;
    this.changed = changed;
    this.memory = memory;
    this.nextLsn = nextLsn;
    this.lastTimestamp = lastTimestamp;
    this.flushDelay = new FlushDelay(options.batch(), options.adaptiveDelay());
  }

  /**
   * The bytes a writer's reservation covers: its largest possible record as a segment of its own
   * plus one block of the next batch, but no more than its own pending limit. Computed in one
   * place, {@link MemoryBudget#reservationBytes(WriterOptions)}, which the Spring starter's startup
   * check uses too.
   */
  static long reservation(WriterOptions options) {
    return MemoryBudget.reservationBytes(options);
  }

  // ------------------------------------------------------------------ append

  AppendResult append(LogRecord record) {
    int size = record.encodedSize();
    WriterOptions.BackpressurePolicy budget = options.backpressure();
    if (size > budget.maxRecordBytes()) {
      throw new RecordExceedsPendingBudgetException("a record of " + size + " encoded bytes exceeds this"
          + " writer's maxRecordBytes of " + budget.maxRecordBytes() + " (WriterOptions.BackpressurePolicy);"
          + " raise it or split the record");
    }
    long alone = worstCase(1, size);
    if (alone > budget.maxPendingBytes()) {
      throw new RecordExceedsPendingBudgetException("a record of " + size + " encoded bytes needs up to "
          + alone + " bytes as a segment, over the pending budget of " + budget.maxPendingBytes() + " bytes");
    }
    if (!memory.couldEverHold(alone)) {
      throw new RecordExceedsPendingBudgetException("a record of " + size + " encoded bytes needs up to "
          + alone + " bytes as a segment, more than this writer can ever hold of the memory budget: it "
          + WriterReservation.shortfall(memory, options) + ", or split the record");
    }
    List<RecordHeader> headers = recordHeaders(record);
    // A read-only view: the value is copied once, into the block, not cloned first.
    ByteBuffer value = record.valueBuffer();
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
        // The batch's worst case with this record in it: what it is checked against and then holds.
        long estimate = batch != null ? worstCase(batch.records + 1, batch.rawBytes + size) : alone;
        if (batch != null && !fits(batch, size, estimate)) {
          cutLocked(true, budget.failWhenFull());
          continue;
        }
        if (batch != null && !memory.growTo(pendingBytes + estimate)) {
          // Its bytes are held already: cutting moves them towards a commit that returns them.
          cutLocked(true, budget.failWhenFull());
          continue;
        }
        if (batch == null) {
          if (pendingBytes + alone > budget.maxPendingBytes()) {
            awaitCapacity(budget.failWhenFull());
            continue;
          }
          if (!memory.growTo(pendingBytes + alone)) {
            awaitMemory(budget.failWhenFull(), alone);
            continue;
          }
          batch = newBatch();
        }
        long lsn = nextLsn;
        if (batch.builder.closesBlock(size)) {
          // A batch that fills blocks is a stream: its next block starts in a whole-block spare.
          // A new batch's first block starts small instead, so short batches hold little heap.
          pipeline.offerSpare(batch);
        }
        RawBlock full;
        try {
          full = batch.builder.append(lsn, record.timestampMs(), headers, value);
        } catch (InvalidArgumentException e) {
          syncMemoryLocked();
          throw e;
        } catch (RuntimeException e) {
          ObjlogException cause = new ObjlogException("writer: encoding a record failed: " + e.getMessage(), e);
          fail.accept(cause, "encode");
          throw new WriterClosedException("writer failed while encoding", cause);
        }
        if (full != null) {
          pipeline.seal(batch, full);
        }
        if (active == null) {
          active = batch;
          scheduleAge(batch);
        }
        nextLsn = lsn + 1;
        lastTimestamp = record.timestampMs();
        batch.records++;
        batch.rawBytes += size;
        batch.estimate = estimate;
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

  /** Whether a record of {@code size} joins {@code batch}, whose worst case then is {@code estimate}. */
  private boolean fits(Segment batch, int size, long estimate) {
    WriterOptions.BatchPolicy policy = options.batch();
    return batch.records < policy.maxRecords()
        && batch.rawBytes + size <= policy.maxBytes()
        && pendingBytes + estimate <= options.backpressure().maxPendingBytes();
  }

  private long worstCase(long records, long rawBytes) {
    WriterOptions.Pipeline p = options.pipeline();
    return SegmentEncoder.worstCaseSegmentSize(records, rawBytes, p.blockBytes(), p.codec());
  }

  private Segment newBatch() {
    byte[] uuid = new byte[16];
    do {
      random.nextBytes(uuid);
    } while (Id128.of(uuid).isZero());
    WriterOptions.Pipeline p = options.pipeline();
    SegmentEncoderOptions encoderOptions = new SegmentEncoderOptions(Integer.toUnsignedLong(partition),
        p.codec(), p.hashAlgorithm(), p.zstdLevel(), p.blockBytes(), clock.millis(), uuid, writerTag);
    Segment batch = new Segment(nextLsn, uuid, keys.segment(nextLsn, epoch, uuid), encoderOptions,
        ticker.read());
    return batch;
  }

  // ------------------------------------------------------------------ age

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

  /** The batch age limit now: fixed, or adaptive ({@link FlushDelay}). */
  Duration batchDelay() {
    return Duration.ofNanos(flushDelay.delayNanos());
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

  // ------------------------------------------------------------------ cut and backpressure

  void cut() {
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

  /**
   * Waits until the memory pool may have room, with the writer lock released meanwhile (the pool
   * never takes a writer's lock, so waking never needs it); the caller looks again.
   */
  private void awaitMemory(boolean failWhenFull, long needed) {
    if (failWhenFull) {
      throw new WriterBackpressureException("the memory budget is exhausted (" + memory.pool().held()
          + " of " + memory.pool().capacity() + " bytes held by writers); the writer of partition "
          + Integer.toUnsignedString(partition) + " needs " + needed + " more bytes; retry later");
    }
    MemoryPool pool = memory.pool();
    long seen = pool.generation();
    int holds = lock.getHoldCount();
    for (int i = 0; i < holds; i++) {
      lock.unlock();
    }
    long started = ticker.read();
    try {
      pool.awaitChange(seen);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new WriterBackpressureException("interrupted while waiting for the memory budget");
    } finally {
      pool.recordWait(ticker.read() - started);
      for (int i = 0; i < holds; i++) {
        lock.lock();
      }
    }
  }

  /**
   * Lets the account hold only what is pending now; once the writer is closed or failed and
   * nothing is pending, closes it, returning the reservation.
   */
  private void syncMemoryLocked() {
    Segment batch = active;
    if (closed && batch == null && pending.isEmpty()) {
      memory.close();
      return;
    }
    memory.shrinkTo(pendingBytes + (batch == null ? 0 : batch.estimate));
  }

  private void doCut(Segment batch) {
    active = null;
    if (batch.ageTimer != null) {
      batch.ageTimer.cancel(false);
    }
    batch.cutAtNanos = ticker.read();
    flushDelay.onCut(batch.records, batch.rawBytes, batch.firstAcceptedNanos, batch.cutAtNanos);
    batch.isCut = true;
    batch.stage = Segment.Stage.SEALING;
    pending.addLast(batch);
    pendingBytes += batch.estimate;
    lastCut = batch.settled;
    RawBlock last = Objects.requireNonNull(batch.builder.takeOpenBlock(), "a cut batch has records");
    pipeline.reclaimSpare(batch);
    pipeline.sealLast(batch, last, batch.builder.blocksClosed());
  }

  // ------------------------------------------------------------------ the queue of cut segments

  /** Every ready segment at the front of the queue, in cut order, marked publishing; may be empty. */
  List<Segment> takeReadyLocked() {
    List<Segment> group = new ArrayList<>();
    if (failure == null) {
      for (Segment s : pending) {
        if (s.stage != Segment.Stage.READY) {
          break;
        }
        group.add(s);
      }
    }
    for (Segment s : group) {
      s.stage = Segment.Stage.PUBLISHING;
    }
    return group;
  }

  /** Whether the oldest pending segment waits for the publisher. */
  boolean firstReadyLocked() {
    Segment first = pending.peekFirst();
    return first != null && first.stage == Segment.Stage.READY;
  }

  /**
   * Takes a published group off the queue (committed or failed), frees its budget, and wakes the
   * appenders waiting for room.
   */
  void removeLocked(List<Segment> group, Segment.Stage outcome) {
    for (Segment s : group) {
      if (pending.remove(s)) {
        pendingBytes -= s.estimate;
      }
      s.stage = outcome;
    }
    syncMemoryLocked();
    changed.signalAll();
  }

  /**
   * After {@code group} committed at ticker reading {@code committedNanos}, freeing room: feeds each
   * segment's persist time (cut → commit) into the adaptive age limit and does a cut that was
   * remembered for lack of room, or that the batch's size calls for.
   */
  void afterCommitLocked(List<Segment> group, long committedNanos) {
    for (Segment s : group) {
      flushDelay.onCommit(committedNanos - s.cutAtNanos);
    }
    Segment batch = active;
    if (batch != null && failure == null
        && (batch.cutWanted || batch.records >= options.batch().maxRecords()
            || batch.rawBytes >= options.batch().maxBytes())) {
      cutLocked(false, true);
    }
  }

  /**
   * Makes the writer terminal with {@code cause} unless it already is (the first cause wins), and
   * takes off the batch being built and every cut segment not being published, marked abandoned.
   *
   * @return whether this was the first failure
   */
  boolean failLocked(ObjlogException cause, List<Segment> dropped) {
    boolean first = failure == null;
    if (first) {
      failure = cause;
      closed = true;
    }
    Segment batch = active;
    if (batch != null) {
      active = null;
      if (batch.ageTimer != null) {
        batch.ageTimer.cancel(false);
      }
      batch.stage = Segment.Stage.ABANDONED;
      dropped.add(batch);
    }
    for (var it = pending.iterator(); it.hasNext(); ) {
      Segment s = it.next();
      if (s.stage != Segment.Stage.PUBLISHING) {
        it.remove();
        pendingBytes -= s.estimate;
        s.stage = Segment.Stage.ABANDONED;
        dropped.add(s);
      }
    }
    syncMemoryLocked();
    memory.pool().wakeAll();
    changed.signalAll();
    return first;
  }

  // ------------------------------------------------------------------ flush, close, state

  /**
   * Never blocks, so that {@code flushAsync} is safe on any thread, the log's scheduler threads
   * (a commit callback) included: when the pending budget has no room for the batch being built,
   * its cut is remembered (the next commit that frees room does it) and the flush follows that
   * batch, which is the last one and commits after every earlier one.
   */
  CompletableFuture<PartitionHead> flushLocked(PartitionHead committed) {
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

  boolean isClosedLocked() {
    return closed;
  }

  void closeLocked() {
    closed = true;
    syncMemoryLocked();
    memory.pool().wakeAll();
  }

  @Nullable ObjlogException failureLocked() {
    return failure;
  }

  @Nullable ObjlogException failureNow() {
    lock.lock();
    try {
      return failure;
    } finally {
      lock.unlock();
    }
  }

  void ensureAccepting() {
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

  WriterState stateLocked(PartitionHead committed) {
    Segment batch = active;
    return new WriterState(committed, nextLsn, batch == null ? 0 : batch.records, pending.size(),
        pendingBytes + (batch == null ? 0 : batch.estimate), closed, failure);
  }

  int pendingSegmentsLocked() {
    return pending.size();
  }

  long pendingBytesLocked() {
    return pendingBytes;
  }
}
