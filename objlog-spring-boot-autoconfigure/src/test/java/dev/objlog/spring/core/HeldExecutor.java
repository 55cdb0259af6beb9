package dev.objlog.spring.core;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * An executor that keeps its tasks until {@link #release()}, then runs each on a thread of its
 * own: a test holds the template's settler with it, so that a send, not the background, settles.
 */
final class HeldExecutor extends AbstractExecutorService {
  private final List<Runnable> held = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private boolean releasing;
  private boolean shutdown;

  @Override
  public synchronized void execute(Runnable task) {
    if (shutdown) {
      throw new RejectedExecutionException("test: shut down");
    }
    if (releasing) {
      start(task);
    } else {
      held.add(task);
      notifyAll();
    }
  }

  /** Waits until at least {@code count} tasks are held. */
  synchronized void awaitHeld(int count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (held.size() < count) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("fewer than " + count + " tasks were handed to the settler: " + held.size());
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }

  /** Runs the held tasks, and any later one at once. */
  synchronized void release() {
    releasing = true;
    held.forEach(this::start);
    held.clear();
  }

  private void start(Runnable task) {
    Thread t = new Thread(task, "test-settler");
    t.setDaemon(true);
    threads.add(t);
    t.start();
  }

  @Override
  public synchronized void shutdown() {
    shutdown = true;
  }

  @Override
  public synchronized List<Runnable> shutdownNow() {
    shutdown = true;
    List<Runnable> left = new ArrayList<>(held);
    held.clear();
    return left;
  }

  @Override
  public synchronized boolean isShutdown() {
    return shutdown;
  }

  @Override
  public synchronized boolean isTerminated() {
    return shutdown && held.isEmpty() && threads.stream().noneMatch(Thread::isAlive);
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    throw new UnsupportedOperationException("test executor");
  }
}
