package dev.objlog.internal.writer;

import dev.objlog.format.HashAlgorithm;
import dev.objlog.format.segment.BlockSealer;
import dev.objlog.format.segment.Codec;
import dev.objlog.format.segment.RawBlock;
import dev.objlog.format.segment.RawBlockBuilder;
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
 * BlockSealer} borrowed for that seal from the log's {@link SealResources} (shared by every writer
 * of the log, so native zstd contexts follow the seals running at once, not the number of
 * writers). If the executor refuses a task, {@code onRejected} hears of it (the writer fails:
 * queued seals would otherwise never run).
 * Bounded parallelism is the pool's own, whatever the executor's size: a shared scheduler is not
 * flooded, and compression cannot take every core from the appending threads.
 *
 * <p>A whole block's raw buffer that a zstd seal freed goes to the log's spares, so a writer's next
 * block can reuse it instead of allocating and zeroing a new one; the pool keeps none of its own.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
final class SealPool {
  private final Executor executor;
  private final int parallelism;
  private final Codec codec;
  private final int level;
  private final HashAlgorithm hash;
  /** A raw buffer at least this long holds a whole block: only those are worth keeping as spares. */
  private final int wholeBlock;
  private final SealResources resources;
  private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
  private final AtomicInteger running = new AtomicInteger();
  private final Consumer<RejectedExecutionException> onRejected;

  SealPool(Executor executor, int parallelism, Codec codec, int level, HashAlgorithm hash, int blockBytes,
      SealResources resources, Consumer<RejectedExecutionException> onRejected) {
    this.executor = executor;
    this.onRejected = onRejected;
    this.parallelism = parallelism;
    this.codec = codec;
    this.level = level;
    this.hash = hash;
    this.wholeBlock = RawBlockBuilder.fullBufferLength(blockBytes);
    this.resources = resources;
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
   * Seals one block with a sealer borrowed for it. A codec-none block whose buffer is much larger
   * than the block is copied to its size, since sealed blocks are retained until their segment is
   * uploaded.
   */
  SealedBlock seal(RawBlock raw) {
    BlockSealer sealer = resources.borrow(codec, level, hash);
    try {
      SealedBlock sealed = sealer.seal(raw);
      if (codec == Codec.ZSTD) {
        offerSpare(raw.buffer());
        return sealed;
      }
      int len = sealed.length();
      return sealed.bytes().length - len > (len >>> 3) + 64 ? sealed.compacted() : sealed;
    } finally {
      resources.giveBack(sealer);
    }
  }

  /** Offers a freed raw buffer to the log's spares if it holds a whole block of this writer. */
  void offerSpare(byte[] buffer) {
    if (buffer.length >= wholeBlock) {
      resources.offerSpare(buffer);
    }
  }

  /** A spare buffer for a whole block of this writer, or null. */
  byte @Nullable [] takeSpare() {
    return resources.takeSpare(wholeBlock);
  }
}
