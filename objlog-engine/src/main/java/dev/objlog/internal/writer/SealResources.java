package dev.objlog.internal.writer;

import dev.objlog.format.HashAlgorithm;
import dev.objlog.format.segment.BlockSealer;
import dev.objlog.format.segment.Codec;
import dev.objlog.internal.LogThread;
import dev.objlog.internal.memory.MemoryPool;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What every writer of one log shares for sealing blocks, bounded whatever the number of writers:
 * block sealers (a zstd sealer keeps a native compression context, native memory the heap does
 * not show) and spare raw block buffers that a seal freed.
 *
 * <p>A seal borrows a sealer for its own duration and gives it back, so sealers exist only for
 * the seals running at once (never more than the threads of the sealing executors, and each
 * writer's {@code sealParallelism}), and at most {@link #maxIdle()} of them stay idle: one given
 * back beyond that is freed. The zstd ones are counted in the memory pool's {@code zstdContexts}
 * from creation to freeing. Spare buffers: at most {@link #maxIdle()}, each a whole block of the
 * writer that freed it; a writer whose next block starts fills it instead of allocating and
 * zeroing a new one. {@link #close} (the log closes) frees the idle sealers and drops the spares;
 * a sealer given back afterwards is freed at once.
 *
 * <p>Thread-safety: safe for concurrent use (guarded by this object's monitor; zstd contexts are
 * created and freed outside it).
 */
public final class SealResources implements AutoCloseable {
  /** Idle sealers and spare buffers kept by default: sealing is CPU-bound, so one per core. */
  public static final int DEFAULT_MAX_IDLE = LogThread.SCHEDULER_THREADS;

  private record Kind(Codec codec, int level, HashAlgorithm hash) {}

  private final MemoryPool pool;
  private final int maxIdle;
  // Guarded by this.
  private final Map<Kind, ArrayDeque<BlockSealer>> idle = new HashMap<>();
  private final ArrayDeque<byte[]> spares = new ArrayDeque<>();
  private int idleSealers;
  private int open;
  private boolean closed;

  /** Shares at most {@link #DEFAULT_MAX_IDLE} idle sealers and spares; counts contexts in {@code pool}. */
  public SealResources(MemoryPool pool) {
    this(pool, DEFAULT_MAX_IDLE);
  }

  SealResources(MemoryPool pool, int maxIdle) {
    if (maxIdle < 0) {
      throw new IllegalArgumentException("maxIdle must not be negative, was " + maxIdle);
    }
    this.pool = pool;
    this.maxIdle = maxIdle;
  }

  /** How many idle sealers, and how many spare buffers, are kept at most. */
  public int maxIdle() {
    return maxIdle;
  }

  /** Sealers that exist now, idle or lent (tests). */
  synchronized int openSealers() {
    return open;
  }

  /** Spare buffers kept now (tests). */
  synchronized int spareBuffers() {
    return spares.size();
  }

  /**
   * A sealer for one seal; give it back with {@link #giveBack}.
   *
   * @throws dev.objlog.InvalidArgumentException if zstd rejects the level
   */
  BlockSealer borrow(Codec codec, int level, HashAlgorithm hash) {
    Kind kind = new Kind(codec, level, hash);
    synchronized (this) {
      ArrayDeque<BlockSealer> q = idle.get(kind);
      BlockSealer s = q == null ? null : q.pollLast();
      if (s != null) {
        idleSealers--;
        return s;
      }
    }
    BlockSealer s = new BlockSealer(codec, level, hash);
    synchronized (this) {
      open++;
    }
    if (codec == Codec.ZSTD) {
      pool.countZstdContexts(1);
    }
    return s;
  }

  /**
   * Takes a sealer back for the next seal, or frees it when {@link #maxIdle()} are idle already
   * or the log closed.
   */
  void giveBack(BlockSealer sealer) {
    synchronized (this) {
      if (!closed && idleSealers < maxIdle) {
        idle.computeIfAbsent(new Kind(sealer.codec(), sealer.zstdLevel(), sealer.hashAlgorithm()),
            k -> new ArrayDeque<>()).addLast(sealer);
        idleSealers++;
        return;
      }
      open--;
    }
    free(sealer);
  }

  private void free(BlockSealer sealer) {
    sealer.close();
    if (sealer.codec() == Codec.ZSTD) {
      pool.countZstdContexts(-1);
    }
  }

  /** Keeps a freed raw block buffer for the next block, if fewer than {@link #maxIdle()} are kept. */
  void offerSpare(byte[] buffer) {
    synchronized (this) {
      if (!closed && spares.size() < maxIdle) {
        spares.addLast(buffer);
      }
    }
  }

  /**
   * A spare buffer of at least {@code minLength} bytes, or null. Smaller spares found on the way
   * (a writer with smaller blocks freed them) are dropped: they would be taken by nobody else
   * sooner than by their own kind, and keeping them would keep out the ones that fit.
   */
  byte @Nullable [] takeSpare(int minLength) {
    synchronized (this) {
      for (Iterator<byte[]> it = spares.descendingIterator(); it.hasNext(); ) {
        byte[] b = it.next();
        it.remove();
        if (b.length >= minLength) {
          return b;
        }
      }
      return null;
    }
  }

  /** Frees the idle sealers and drops the spares; lent sealers are freed when given back. Idempotent. */
  @Override
  public void close() {
    List<BlockSealer> drained = new ArrayList<>();
    synchronized (this) {
      closed = true;
      for (ArrayDeque<BlockSealer> q : idle.values()) {
        drained.addAll(q);
      }
      idle.clear();
      idleSealers = 0;
      open -= drained.size();
      spares.clear();
    }
    drained.forEach(this::free);
  }
}
