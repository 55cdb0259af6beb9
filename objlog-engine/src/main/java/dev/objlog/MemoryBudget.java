package dev.objlog;

import dev.objlog.format.segment.SegmentEncoder;
import dev.objlog.format.segment.SegmentFormat;
import dev.objlog.internal.memory.MemoryPool;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;

/**
 * One envelope of memory shared by every log opened with it: the pending bytes of all its
 * partition writers (worst-case bytes of batches being built and of segments cut but not yet
 * committed) and every cache of those logs (decoded blocks, opened segments, catalog pages; see
 * {@link MemoryPart}).
 *
 * <p>Caches use what writers do not hold: an entry is kept only while it fits beside the writers'
 * bytes and a small headroom (1/64 of the budget), and a writer that needs more makes caches evict
 * first, on its own thread, before it borrows, waits or fails; caches never make a writer wait.
 * A cache's own size option (for example {@code ReaderOptions.blockCacheBytes}) stays its ceiling.
 * {@code Objlog.close} and {@code LogReader.close} return the bytes of the caches they own.
 *
 * <p>Each partition writer, when it opens, is guaranteed a <b>reservation</b> of one maximum record
 * plus one block (capped by its {@link WriterOptions.BackpressurePolicy#maxPendingBytes()}), which
 * no other writer can take. What a writer holds beyond its reservation is <b>borrowed</b> from the
 * part of the budget no reservation covers and goes back when its segments commit or fail. When
 * nothing is left to borrow the writer applies its backpressure policy: it waits, interruptibly,
 * or throws {@link WriterBackpressureException} with {@code failWhenFull}; a record that could not
 * fit even with everything the budget can ever lend it throws {@link
 * RecordExceedsPendingBudgetException}. The per-writer {@code maxPendingBytes} and {@code
 * maxPendingSegments} still cap each writer.
 *
 * <p>Reservations never sum past the budget: a writer opened when they already fill it gets what
 * is left (possibly nothing) and borrows the rest, and a record it can then never hold is refused
 * with {@code RecordExceedsPendingBudgetException}, at every append. So size the budget for at
 * least one reservation ({@link #reservationBytes(WriterOptions)}) per partition writer of the
 * process, or lower {@code maxRecordBytes} ({@link #maxRecordBytesWithin(WriterOptions, long)}
 * says how far). A writer opened with less than its whole reservation logs one WARNING naming the
 * budget, the bytes it wanted and got, and what to change; the Spring starter checks at startup
 * that the writers of every configured stream fit their budget and fails startup otherwise.
 *
 * <p>What writers hold outside the count is bounded: a block's raw buffer starts small and
 * doubles with its records up to the block size, so an open block, or a cut block waiting for
 * its seal, holds a buffer of at most twice its counted raw bytes plus 16 KiB (a batch that
 * already filled a block may start its next one in a whole-block spare instead). Per open log,
 * not per writer: at most {@code max(2, available processors)} idle zstd compression contexts
 * (native memory, one per seal running beyond that while it runs, all freed by {@code
 * Objlog.close}) and as many spare whole-block buffers; {@link #zstdContexts()} counts the
 * contexts.
 *
 * <p>Pass one budget to every {@link ObjlogOptions} of a process (the Spring starter makes one per
 * application context, property {@code objlog.memory.budget}). Options built without one share
 * {@link #processDefault()}, so opening many logs with default options still gives one envelope.
 *
 * <p>Thread-safety: safe for concurrent use; every figure is a snapshot.
 */
public final class MemoryBudget {
  /** Share of {@link Runtime#maxMemory()} the default budget takes. */
  public static final int DEFAULT_HEAP_PERCENT = 25;
  /**
   * The default is never smaller: 32 MiB holds the reservations of a handful of writers with the
   * default 1 MiB blocks and records up to 4 MiB, so a small JVM (or an unlimited-looking
   * container with a tiny heap) still writes, rather than making every writer wait.
   */
  public static final long DEFAULT_FLOOR_BYTES = 32L << 20;
  /**
   * The default is never larger: 2 GiB of pending segments is far more than it takes to keep
   * uploads busy (throughput comes from parallel uploads, not from queueing), and beyond it a large
   * heap is better left to the application and the collector than held as a write queue.
   */
  public static final long DEFAULT_CEILING_BYTES = 2L << 30;

  private static final class ProcessDefault {
    static final MemoryBudget INSTANCE = heapDefault();
  }

  private final MemoryPool pool;
  private final String origin;

  private MemoryBudget(long bytes, String origin) {
    this.pool = new MemoryPool(bytes);
    this.origin = origin;
  }

  /**
   * A budget of exactly {@code bytes}.
   *
   * @throws InvalidArgumentException if {@code bytes} is not positive
   */
  public static MemoryBudget ofBytes(long bytes) {
    if (bytes < 1) {
      throw new InvalidArgumentException("a memory budget must be positive, was " + bytes + " bytes");
    }
    return new MemoryBudget(bytes, bytes + " bytes");
  }

  /**
   * A budget of {@code percent} of {@link Runtime#maxMemory()} (no floor or ceiling: you asked for
   * this share).
   *
   * @throws InvalidArgumentException if {@code percent} is not above 0 and at most 100
   */
  public static MemoryBudget ofHeapPercent(double percent) {
    if (!(percent > 0 && percent <= 100)) {
      throw new InvalidArgumentException("a memory budget's share of the heap must be above 0 and at most 100 %,"
          + " was " + percent);
    }
    long bytes = Math.max(1, (long) (Runtime.getRuntime().maxMemory() * (percent / 100.0)));
    return new MemoryBudget(bytes, percent + " % of the heap");
  }

  /**
   * A new budget of the default size, {@link #defaultBytes(long)} of this JVM's {@link
   * Runtime#maxMemory()}.
   */
  public static MemoryBudget heapDefault() {
    return new MemoryBudget(defaultBytes(Runtime.getRuntime().maxMemory()),
        DEFAULT_HEAP_PERCENT + " % of the heap, within [32 MiB, 2 GiB]");
  }

  /**
   * {@value #DEFAULT_HEAP_PERCENT} % of {@code maxMemory}, but at least {@link
   * #DEFAULT_FLOOR_BYTES} and at most {@link #DEFAULT_CEILING_BYTES}.
   */
  public static long defaultBytes(long maxMemory) {
    long share = maxMemory == Long.MAX_VALUE ? DEFAULT_CEILING_BYTES : maxMemory / 100 * DEFAULT_HEAP_PERCENT + maxMemory % 100 * DEFAULT_HEAP_PERCENT / 100;
    return Math.max(DEFAULT_FLOOR_BYTES, Math.min(DEFAULT_CEILING_BYTES, share));
  }

  /**
   * The budget every {@link ObjlogOptions} built without one shares: created at first use with
   * {@link #heapDefault()}, one per class loader. A fallback, not a registry: nothing looks it up
   * but the options builder.
   */
  public static MemoryBudget processDefault() {
    return ProcessDefault.INSTANCE;
  }

  /**
   * The bytes a partition writer opened with {@code options} asks its budget to guarantee it (its
   * reservation): its largest record ({@link WriterOptions.BackpressurePolicy#maxRecordBytes()}) as
   * a segment of its own plus one block of the next batch ({@link
   * WriterOptions.Pipeline#blockBytes()}), but no more than its {@link
   * WriterOptions.BackpressurePolicy#maxPendingBytes()}. With the defaults, about 5.3 MiB. A budget
   * guarantees every writer of a process its reservation when it is at least the sum of theirs.
   */
  public static long reservationBytes(WriterOptions options) {
    WriterOptions.Pipeline p = options.pipeline();
    // The largest record the writer accepts, framed as the block builder frames it.
    long maxRecord = options.backpressure().maxRecordBytes();
    long wanted = SegmentEncoder.worstCaseSegmentSize(1, maxRecord, p.blockBytes(), p.codec()) + p.blockBytes();
    return Math.min(options.backpressure().maxPendingBytes(), wanted);
  }

  /**
   * The largest {@link WriterOptions.BackpressurePolicy#maxRecordBytes()}, at most the one {@code
   * options} has, with which the rest of {@code options} reserves no more than {@code
   * reservationBytes} ({@link #reservationBytes(WriterOptions)}); 0 when not even the smallest
   * record does (one block alone is more: lower the block size, or give the writer more).
   */
  public static int maxRecordBytesWithin(WriterOptions options, long reservationBytes) {
    WriterOptions.BackpressurePolicy policy = options.backpressure();
    // The reservation grows with the record size, so the largest size that fits is found by
    // bisection over the sizes the options could have, without a second copy of the formula.
    int low = SegmentFormat.RECORD_ENVELOPE_SIZE;
    int high = policy.maxRecordBytes();
    if (reservation(options, policy, low) > reservationBytes) {
      return 0;
    }
    while (low < high) {
      int mid = low + (high - low + 1) / 2;
      if (reservation(options, policy, mid) <= reservationBytes) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    return low;
  }

  private static long reservation(WriterOptions options, WriterOptions.BackpressurePolicy policy, int maxRecordBytes) {
    return reservationBytes(new WriterOptions(options.writerId(), options.batch(),
        policy.withMaxRecordBytes(maxRecordBytes), options.adaptiveDelay(), options.pipeline(), options.timeouts()));
  }

  /** The budget's size in bytes. */
  public long capacityBytes() {
    return pool.capacity();
  }

  /**
   * Bytes held now by every writer on this budget (worst-case pending bytes); caches are counted
   * apart, {@link #cachedBytes()}.
   */
  public long usedBytes() {
    return pool.held();
  }

  /** Bytes held now by {@code part}: writers ({@link #usedBytes()}) or one kind of cache. */
  public long usedBytes(MemoryPart part) {
    return pool.held(Objects.requireNonNull(part, "part"));
  }

  /** Every part's bytes, taken at one instant, in {@link MemoryPart} order. */
  public Map<MemoryPart, Long> usedBytesByPart() {
    return Collections.unmodifiableMap(pool.heldByPart());
  }

  /** Bytes held now by every cache on this budget. */
  public long cachedBytes() {
    return pool.cached();
  }

  /** Bytes caches evicted so far so that writers could grow. */
  public long reclaimedBytes() {
    return pool.reclaimedBytes();
  }

  /**
   * Native zstd contexts the logs on this budget keep open now (native memory the heap does not
   * show): readers' decompression contexts (at most 8 per reader, freed when it closes) and
   * writers' compression contexts (shared by the writers of a log: one per seal running, at most
   * {@code max(2, available processors)} kept idle, freed when the log closes).
   */
  public long zstdContexts() {
    return pool.zstdContexts();
  }

  /** Bytes guaranteed to the open writers, used or not. */
  public long reservedBytes() {
    return pool.reserved();
  }

  /** Bytes writers hold beyond their reservations. */
  public long borrowedBytes() {
    return pool.borrowed();
  }

  /** Time writers spent waiting for this budget so far, summed over all writers. */
  public Duration writerWaitTime() {
    return Duration.ofNanos(pool.waitNanos());
  }

  MemoryPool pool() {
    return pool;
  }

  @Override
  public String toString() {
    return "MemoryBudget[" + pool.capacity() + " bytes (" + origin + "), used " + usedBytes()
        + ", cached " + cachedBytes() + "]";
  }
}
