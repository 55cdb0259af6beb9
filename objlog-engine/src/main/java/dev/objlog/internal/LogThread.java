package dev.objlog.internal;

/**
 * A thread of a log's own executors (made when the caller gave none): work that waits for other
 * tasks on those executors, such as a tailer's read-ahead, asks {@link #isCurrent()} and does not
 * wait there, since every thread of the pool could end up waiting for a task queued behind it.
 *
 * <p>Thread-safety: as {@link Thread}.
 */
public final class LogThread extends Thread {
  public LogThread(Runnable task, String name) {
    super(task, name);
    setDaemon(true);
  }

  /** Whether the calling thread is one of a log's own. */
  public static boolean isCurrent() {
    return Thread.currentThread() instanceof LogThread;
  }
}
