package dev.objlog.testing;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;

/**
 * A {@link ScheduledExecutorService} that runs nothing by itself: tasks wait in a queue until the
 * test steps it, on the test's own thread, and delays are measured on a {@link MutableClock}. Each
 * step runs one task that is due, chosen by a seeded generator among all due tasks (so the order
 * in which a real thread pool might have run them is explored, reproducibly); when none is due the
 * test may move the clock to the earliest deadline. With the clock, a sleeper that advances it and
 * this scheduler, every background action of a log happens at a point the seed chooses, which
 * makes a simulation replay bit for bit.
 *
 * <p>Thread-safety: single-threaded by design. Every call must come from the thread that created
 * it; a call from another thread fails, because work leaking to a real thread is exactly what
 * would break determinism.
 */
public final class SteppedScheduler extends AbstractExecutorService implements ScheduledExecutorService {
  private final MutableClock clock;
  private final RandomGenerator random;
  private final Thread owner = Thread.currentThread();
  private final List<Task<?>> queue = new ArrayList<>();
  private long sequence;
  private long executed;
  private boolean shutdown;

  public SteppedScheduler(MutableClock clock, RandomGenerator random) {
    this.clock = clock;
    this.random = random;
  }

  /** Tasks run so far. */
  public long executed() {
    return executed;
  }

  /** Tasks waiting, due or not. */
  public int queued() {
    return queue.size();
  }

  /** Runs one due task, chosen by the seed; false if none is due. */
  public boolean step() {
    checkThread();
    Instant now = clock.instant();
    List<Task<?>> due = new ArrayList<>();
    for (Task<?> t : queue) {
      if (!t.due.isAfter(now)) {
        due.add(t);
      }
    }
    if (due.isEmpty()) {
      return false;
    }
    Task<?> task = due.get(random.nextInt(due.size()));
    queue.remove(task);
    executed++;
    task.runOnce();
    return true;
  }

  /** Moves the clock to the earliest deadline in the queue; false if the queue is empty. */
  public boolean advanceToNextDeadline() {
    checkThread();
    Instant earliest = null;
    for (Task<?> t : queue) {
      if (earliest == null || t.due.isBefore(earliest)) {
        earliest = t.due;
      }
    }
    if (earliest == null) {
      return false;
    }
    Instant now = clock.instant();
    if (earliest.isAfter(now)) {
      clock.advance(Duration.between(now, earliest));
    }
    return true;
  }

  /**
   * Lets background work make progress: up to {@code tasks} steps, moving the clock to the next
   * deadline whenever nothing is due.
   */
  public void run(int tasks) {
    for (int i = 0; i < tasks; i++) {
      if (!step() && !(advanceToNextDeadline() && step())) {
        return;
      }
    }
  }

  /**
   * Steps until {@code future} is done, moving the clock to the next deadline whenever nothing is
   * due.
   *
   * @throws AssertionError if the queue runs dry while the future is pending (nothing could ever
   *     complete it: a lost wake-up) or after {@code maxTasks} steps (a livelock)
   */
  public void runUntilDone(Future<?> future, long maxTasks) {
    long start = executed;
    while (!future.isDone()) {
      if (executed - start >= maxTasks) {
        throw new AssertionError("still pending after " + maxTasks + " background tasks (livelock?)");
      }
      if (!step() && !advanceToNextDeadline()) {
        throw new AssertionError("pending, but no background task is left that could complete it (lost wake-up)");
      }
    }
  }

  private void checkThread() {
    if (Thread.currentThread() != owner) {
      throw new IllegalStateException("SteppedScheduler used from " + Thread.currentThread().getName()
          + "; it belongs to " + owner.getName());
    }
  }

  private <V> Task<V> enqueue(Task<V> task) {
    checkThread();
    if (shutdown) {
      throw new RejectedExecutionException("scheduler is shut down");
    }
    queue.add(task);
    return task;
  }

  private Instant after(long delay, TimeUnit unit) {
    return clock.instant().plusNanos(Math.max(0, unit.toNanos(delay)));
  }

  @Override
  public void execute(Runnable command) {
    enqueue(new Task<>(Executors.callable(command, null), clock.instant(), 0));
  }

  @Override
  public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
    return enqueue(new Task<>(Executors.callable(command, null), after(delay, unit), 0));
  }

  @Override
  public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
    return enqueue(new Task<>(callable, after(delay, unit), 0));
  }

  @Override
  public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
    return enqueue(new Task<>(Executors.callable(command, null), after(initialDelay, unit), unit.toNanos(period)));
  }

  @Override
  public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
    return enqueue(new Task<>(Executors.callable(command, null), after(initialDelay, unit), -unit.toNanos(delay)));
  }

  @Override
  public void shutdown() {
    shutdown = true;
  }

  @Override
  public List<Runnable> shutdownNow() {
    shutdown = true;
    List<Runnable> pending = new ArrayList<>(queue);
    queue.clear();
    return pending;
  }

  @Override
  public boolean isShutdown() {
    return shutdown;
  }

  @Override
  public boolean isTerminated() {
    return shutdown && queue.isEmpty();
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return isTerminated();
  }

  /** A queued task; period > 0 repeats at a fixed rate, < 0 with a fixed delay, 0 runs once. */
  private final class Task<V> extends FutureTask<V> implements ScheduledFuture<V> {
    private final long seq = sequence++;
    private final long period;
    private Instant due;

    Task(Callable<V> callable, Instant due, long period) {
      super(callable);
      this.due = due;
      this.period = period;
    }

    void runOnce() {
      if (period == 0) {
        run();
      } else if (runAndReset() && !shutdown) {
        due = period > 0 ? due.plusNanos(period) : clock.instant().plusNanos(-period);
        queue.add(this);
      }
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      boolean cancelled = super.cancel(false);
      if (cancelled && Thread.currentThread() == owner) {
        queue.remove(this);
      }
      return cancelled;
    }

    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(Duration.between(clock.instant(), due));
    }

    @Override
    public int compareTo(Delayed other) {
      if (other instanceof Task<?> t) {
        int c = due.compareTo(t.due);
        return c != 0 ? c : Long.compare(seq, t.seq);
      }
      return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
    }
  }
}
