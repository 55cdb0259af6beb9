package dev.objlog.internal.read;

import dev.objlog.format.segment.DecodeContext;
import dev.objlog.internal.memory.MemoryPool;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The decode contexts of one reader, each keeping a native zstd context (native memory the heap
 * budget does not see), bounded: at most {@link #max()} exist at once, lent to one decode at a
 * time and reused. When all are lent, a decode gets a context that keeps no native one (zstd then
 * makes and frees one for each block it decompresses), so decoding never waits and native memory
 * kept stays bounded whatever the number of reading threads. Counted in the memory pool's {@code
 * zstdContexts}.
 *
 * <p>Thread-safety: safe for concurrent use (guarded by this object's monitor).
 */
final class ZstdContexts implements AutoCloseable {
  private final int max;
  private final MemoryPool pool;
  private final ArrayDeque<DecodeContext> idle = new ArrayDeque<>();
  // Guarded by this.
  private int open;
  private boolean closed;

  ZstdContexts(int max, MemoryPool pool) {
    if (max < 1) {
      throw new IllegalArgumentException("at least one context, was " + max);
    }
    this.max = max;
    this.pool = pool;
  }

  int max() {
    return max;
  }

  /** Contexts keeping a native zstd context now, idle or lent. */
  synchronized int open() {
    return open;
  }

  /** A context for one decode; give it back with {@link #giveBack}. */
  DecodeContext borrow() {
    synchronized (this) {
      DecodeContext c = idle.pollLast();
      if (c != null) {
        return c;
      }
      if (closed || open >= max) {
        return DecodeContext.withoutNativeContext();
      }
      open++;
    }
    pool.countZstdContexts(1);
    return new DecodeContext();
  }

  /**
   * Takes a context back for reuse; one that saw a failure ({@code discard}) is freed instead (a
   * new one costs little), and so is every one once closed.
   */
  void giveBack(DecodeContext context, boolean discard) {
    if (context.keepsNativeContext()) {
      synchronized (this) {
        if (!closed && !discard) {
          idle.addLast(context);
          return;
        }
        open--;
      }
      pool.countZstdContexts(-1);
    }
    context.close();
  }

  /** Frees the idle contexts; one still lent (a read-ahead decode) is freed when given back. */
  @Override
  public void close() {
    List<DecodeContext> drained;
    synchronized (this) {
      closed = true;
      drained = List.copyOf(idle);
      idle.clear();
      open -= drained.size();
    }
    pool.countZstdContexts(-drained.size());
    drained.forEach(DecodeContext::close);
  }
}
