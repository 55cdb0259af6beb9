package dev.objlog.internal;

/**
 * A thread of a log's own executors (made when the caller gave none): work that waits for other
 * tasks on those executors, such as a tailer's read-ahead, asks {@link #isCurrent()} and does not
 * wait there, since every thread of the pool could end up waiting for a task queued behind it.
 *
 * <p>Thread-safety: as {@link Thread}.
 */
public final class LogThread extends Thread {
  /**
   * Threads of a log's own scheduler: one per core, at least two. What is shared per log and used
   * from that scheduler (idle zstd sealers and spare blocks, tailers reading ahead) is sized to it,
   * since more of them would not run at once.
   */
  public static final int SCHEDULER_THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());

  public LogThread(Runnable task, String name) {
    super(task, name);
    setDaemon(true);
  }

  /** Whether the calling thread is one of a log's own. */
  public static boolean isCurrent() {
    return Thread.currentThread() instanceof LogThread;
  }
}
