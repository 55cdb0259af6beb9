package dev.objlog.internal.writer;

import dev.objlog.format.HashAlgorithm;
import dev.objlog.format.segment.BlockSealer;
import dev.objlog.format.segment.Codec;
import dev.objlog.format.segment.RawBlock;
import dev.objlog.format.segment.SealedBlock;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Runs a writer's block seals on its executor, at most {@code parallelism} at once, started in
 * submission order (completion order is free), one executor task per seal, each with a {@link
 * BlockSealer} borrowed from a pool (one zstd context per concurrent seal, created on demand, so at
 * most {@code parallelism} of them). If the executor refuses a task, {@code onRejected} hears of it
 * (the writer fails: queued seals would otherwise never run).
 * Bounded parallelism is the pool's own, whatever the executor's size: a shared scheduler is not
 * flooded, and compression cannot take every core from the appending threads.
 *
 * <p>Also keeps one raw block buffer that sealing (zstd) or a cut freed, so the appending thread
 * can reuse it instead of allocating and zeroing a new one per block.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
final class SealPool {
  private final Executor executor;
  private final int parallelism;
  private final Codec codec;
  private final int level;
  private final HashAlgorithm hash;
  private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
  private final AtomicInteger running = new AtomicInteger();
  private final ConcurrentLinkedQueue<BlockSealer> idle = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<byte[]> spareBuffers = new ConcurrentLinkedQueue<>();
  private final AtomicInteger spareCount = new AtomicInteger();
  private final Consumer<RejectedExecutionException> onRejected;
  private volatile boolean closed;

  SealPool(Executor executor, int parallelism, Codec codec, int level, HashAlgorithm hash,
      Consumer<RejectedExecutionException> onRejected) {
    this.executor = executor;
    this.onRejected = onRejected;
    this.parallelism = parallelism;
    this.codec = codec;
    this.level = level;
    this.hash = hash;
  }

  /** {@code configured}, or min(2, available processors) when it is 0. */
  static int resolveParallelism(int configured) {
    return configured > 0 ? configured : Math.min(2, Runtime.getRuntime().availableProcessors());
  }

  int parallelism() {
    return parallelism;
  }

  /**
   * Queues a job that seals (through {@link #seal}); it runs when one of the {@code parallelism}
   * slots is free.
   *
   * @throws RejectedExecutionException if the executor refused to start a worker
   */
  void submit(Runnable job) {
    queue.add(job);
    if (tryAcquire()) {
      try {
        executor.execute(this::work);
      } catch (RejectedExecutionException e) {
        running.decrementAndGet();
        queue.remove(job);
        throw e;
      }
    }
  }

  private boolean tryAcquire() {
    while (true) {
      int r = running.get();
      if (r >= parallelism) {
        return false;
      }
      if (running.compareAndSet(r, r + 1)) {
        return true;
      }
    }
  }

  /**
   * One slot: runs one queued job, then hands the slot on by submitting itself again, so that on a
   * shared executor (the log's scheduler by default) drains, publishes and timers queued meanwhile
   * run between seals instead of waiting for the seal queue to empty.
   */
  private void work() {
    Runnable job = queue.poll();
    if (job != null) {
      try {
        job.run();
      } finally {
        next();
      }
      return;
    }
    release();
  }

  private void next() {
    if (queue.isEmpty()) {
      release();
      return;
    }
    try {
      executor.execute(this::work);
    } catch (RejectedExecutionException e) {
      running.decrementAndGet();
      onRejected.accept(e);
    }
  }

  private void release() {
    running.decrementAndGet();
    // A job queued between the poll and the decrement found every slot taken: take it here.
    if (!queue.isEmpty() && tryAcquire()) {
      try {
        executor.execute(this::work);
      } catch (RejectedExecutionException e) {
        running.decrementAndGet();
        onRejected.accept(e);
      }
    }
  }

  /**
   * Seals one block with a pooled sealer. A codec-none block whose buffer is much larger than the
   * block is copied to its size, since sealed blocks are retained until their segment is uploaded.
   */
  SealedBlock seal(RawBlock raw) {
    BlockSealer sealer = idle.poll();
    if (sealer == null) {
      sealer = new BlockSealer(codec, level, hash);
    }
    try {
      SealedBlock sealed = sealer.seal(raw);
      if (codec == Codec.ZSTD) {
        offerSpare(raw.buffer());
        return sealed;
      }
      int len = sealed.length();
      return sealed.bytes().length - len > (len >>> 3) + 64 ? sealed.compacted() : sealed;
    } finally {
      if (closed) {
        sealer.close();
      } else {
        idle.add(sealer);
        if (closed && idle.remove(sealer)) {
          sealer.close();
        }
      }
    }
  }

  /**
   * Keeps {@code buffer} if no spare is kept yet. One is enough: the appending thread opens one
   * block at a time, and every spare kept is a whole block of heap that no budget counts (a writer
   * of many partitions keeping a few each held more than its pending bytes).
   */
  void offerSpare(byte[] buffer) {
    if (spareCount.compareAndSet(0, 1)) {
      spareBuffers.add(buffer);
    }
  }

  /** The raw buffer a seal or a cut freed, or null. */
  byte @Nullable [] takeSpare() {
    byte[] b = spareBuffers.poll();
    if (b != null) {
      spareCount.set(0);
    }
    return b;
  }

  /** Releases idle zstd contexts; a seal still running releases its own when it ends. Idempotent. */
  void close() {
    closed = true;
    for (BlockSealer s; (s = idle.poll()) != null; ) {
      s.close();
    }
    spareBuffers.clear();
  }
}
