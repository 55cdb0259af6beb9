package dev.objlog.testing;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * step runs one task that is due, chosen by a seeded generator (so the order in which real thread
 * pools might have run them is explored, reproducibly); when none is due the test may move the
 * clock to the earliest deadline. With the clock, a sleeper that advances it and this scheduler,
 * every background action of a log happens at a point the seed chooses, which makes a simulation
 * replay bit for bit.
 *
 * <p>Pools: the scheduler itself is one pool (named {@code scheduler}); {@link #pool(String)}
 * adds another, separately queued, as production has a scheduler that seals blocks and a
 * separate store I/O pool for uploads and head swaps. A step first picks, by the seed, one of the
 * pools that has a due task, then one of that pool's due tasks, so each pool progresses on its
 * own and the interleaving between pools is the seed's.
 *
 * <p>A task that throws is recorded in {@link #escaped()} (a real pool would let the exception
 * end the thread or bury it in a future nobody reads): background code must handle its own
 * failures, so a test should treat any escaped exception as a bug.
 *
 * <p>Thread-safety: single-threaded by design. Every call must come from the thread that created
 * it; a call from another thread fails, because work leaking to a real thread is exactly what
 * would break determinism.
 */
public final class SteppedScheduler extends AbstractExecutorService implements ScheduledExecutorService {
  /** The name of the scheduler's own pool. */
  public static final String SCHEDULER = "scheduler";

  private final MutableClock clock;
  private final RandomGenerator random;
  private final Thread owner = Thread.currentThread();
  /** Queues by pool, in creation order (iteration order must not depend on hashing). */
  private final Map<String, List<Task<?>>> queues = new LinkedHashMap<>();
  private final Map<String, Pool> views = new LinkedHashMap<>();
  private final Pool own = new Pool(SCHEDULER);
  private final List<Escaped> escaped = new ArrayList<>();
  private long sequence;
  private long executed;
  private boolean shutdown;

  /** An exception a background task let escape. */
  public record Escaped(String pool, Throwable exception) {}

  public SteppedScheduler(MutableClock clock, RandomGenerator random) {
    this.clock = clock;
    this.random = random;
    queues.put(SCHEDULER, new ArrayList<>());
  }

  /**
   * Another pool, queued separately from the scheduler's (created on first use, the same view
   * for the same name): it shares the scheduler's clock, steps and shutdown, and schedules work
   * as the scheduler does.
   */
  public ScheduledExecutorService pool(String name) {
    checkThread();
    if (name.equals(SCHEDULER)) {
      return this;
    }
    queues.computeIfAbsent(name, n -> new ArrayList<>());
    return views.computeIfAbsent(name, Pool::new);
  }

  /** Tasks run so far, over all pools. */
  public long executed() {
    return executed;
  }

  /** Tasks waiting, due or not, over all pools. */
  public int queued() {
    int n = 0;
    for (List<Task<?>> q : queues.values()) {
      n += q.size();
    }
    return n;
  }

  /** Exceptions background tasks let escape, in the order they were thrown. */
  public List<Escaped> escaped() {
    return Collections.unmodifiableList(escaped);
  }

  /** Runs one due task, chosen by the seed; false if none is due. */
  public boolean step() {
    checkThread();
    Instant now = clock.instant();
    List<List<Task<?>>> duePools = new ArrayList<>();
    for (List<Task<?>> q : queues.values()) {
      for (Task<?> t : q) {
        if (!t.due.isAfter(now)) {
          duePools.add(q);
          break;
        }
      }
    }
    if (duePools.isEmpty()) {
      return false;
    }
    List<Task<?>> queue = duePools.get(duePools.size() == 1 ? 0 : random.nextInt(duePools.size()));
    List<Task<?>> due = new ArrayList<>();
    for (Task<?> t : queue) {
      if (!t.due.isAfter(now)) {
        due.add(t);
      }
    }
    Task<?> task = due.get(random.nextInt(due.size()));
    queue.remove(task);
    executed++;
    task.runOnce();
    return true;
  }

  /** Moves the clock to the earliest deadline in any queue; false if every queue is empty. */
  public boolean advanceToNextDeadline() {
    checkThread();
    Instant earliest = null;
    for (List<Task<?>> q : queues.values()) {
      for (Task<?> t : q) {
        if (earliest == null || t.due.isBefore(earliest)) {
          earliest = t.due;
        }
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
   * Lets {@code duration} of time pass with the pools alive: runs every task that falls due
   * meanwhile (moving the clock to each deadline in turn), then moves the clock to the end.
   *
   * @throws AssertionError after {@code maxTasks} steps (a livelock)
   */
  public void runFor(Duration duration, long maxTasks) {
    checkThread();
    Instant end = clock.instant().plus(duration);
    long start = executed;
    while (true) {
      if (executed - start >= maxTasks) {
        throw new AssertionError("still busy after " + maxTasks + " background tasks (livelock?)");
      }
      if (step()) {
        continue;
      }
      Instant earliest = null;
      for (List<Task<?>> q : queues.values()) {
        for (Task<?> t : q) {
          if (earliest == null || t.due.isBefore(earliest)) {
            earliest = t.due;
          }
        }
      }
      if (earliest == null || earliest.isAfter(end)) {
        break;
      }
      advanceToNextDeadline();
    }
    Instant now = clock.instant();
    if (end.isAfter(now)) {
      clock.advance(Duration.between(now, end));
    }
  }

  /**
   * Steps until {@code future} is done, moving the clock to the next deadline whenever nothing is
   * due.
   *
   * @throws AssertionError if the queues run dry while the future is pending (nothing could ever
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

  private <V> Task<V> enqueue(String pool, Task<V> task) {
    checkThread();
    if (shutdown) {
      throw new RejectedExecutionException("scheduler is shut down");
    }
    queues.get(pool).add(task);
    return task;
  }

  private Instant after(long delay, TimeUnit unit) {
    return clock.instant().plusNanos(Math.max(0, unit.toNanos(delay)));
  }

  private <V> Task<V> submitTo(String pool, Callable<V> callable, long delay, TimeUnit unit, long period) {
    return enqueue(pool, new Task<>(pool, callable, after(delay, unit), period));
  }

  // The scheduler's own pool schedules exactly as any other named pool does.
  @Override
  public void execute(Runnable command) {
    own.execute(command);
  }

  @Override
  public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
    return own.schedule(command, delay, unit);
  }

  @Override
  public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
    return own.schedule(callable, delay, unit);
  }

  @Override
  public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
    return own.scheduleAtFixedRate(command, initialDelay, period, unit);
  }

  @Override
  public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
    return own.scheduleWithFixedDelay(command, initialDelay, delay, unit);
  }

  @Override
  public void shutdown() {
    shutdown = true;
  }

  @Override
  public List<Runnable> shutdownNow() {
    shutdown = true;
    List<Runnable> pending = new ArrayList<>();
    for (List<Task<?>> q : queues.values()) {
      pending.addAll(q);
      q.clear();
    }
    return pending;
  }

  @Override
  public boolean isShutdown() {
    return shutdown;
  }

  @Override
  public boolean isTerminated() {
    return shutdown && queued() == 0;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return isTerminated();
  }

  /** A named pool's view: its own queue, the scheduler's clock, steps and shutdown. */
  private final class Pool extends AbstractExecutorService implements ScheduledExecutorService {
    private final String name;

    Pool(String name) {
      this.name = name;
    }

    @Override
    public void execute(Runnable command) {
      submitTo(name, Executors.callable(command, null), 0, TimeUnit.NANOSECONDS, 0);
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
      return submitTo(name, Executors.callable(command, null), delay, unit, 0);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
      return submitTo(name, callable, delay, unit, 0);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
      return submitTo(name, Executors.callable(command, null), initialDelay, unit, unit.toNanos(period));
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay,
        TimeUnit unit) {
      return submitTo(name, Executors.callable(command, null), initialDelay, unit, -unit.toNanos(delay));
    }

    @Override
    public void shutdown() {
      SteppedScheduler.this.shutdown();
    }

    @Override
    public List<Runnable> shutdownNow() {
      return SteppedScheduler.this.shutdownNow();
    }

    @Override
    public boolean isShutdown() {
      return shutdown;
    }

    @Override
    public boolean isTerminated() {
      return SteppedScheduler.this.isTerminated();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
      return isTerminated();
    }
  }

  /** A queued task; period > 0 repeats at a fixed rate, < 0 with a fixed delay, 0 runs once. */
  private final class Task<V> extends FutureTask<V> implements ScheduledFuture<V> {
    private final String pool;
    private final long seq = sequence++;
    private final long period;
    private Instant due;

    Task(String pool, Callable<V> callable, Instant due, long period) {
      super(callable);
      this.pool = pool;
      this.due = due;
      this.period = period;
    }

    void runOnce() {
      if (period == 0) {
        run();
      } else if (runAndReset() && !shutdown) {
        due = period > 0 ? due.plusNanos(period) : clock.instant().plusNanos(-period);
        queues.get(pool).add(this);
      }
    }

    @Override
    protected void setException(Throwable t) {
      escaped.add(new Escaped(pool, t));
      super.setException(t);
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      boolean cancelled = super.cancel(false);
      if (cancelled && Thread.currentThread() == owner) {
        queues.get(pool).remove(this);
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
