package dev.objlog.lifecycle;

import dev.objlog.ObjlogException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs maintenance tasks for many partitions (PROTOCOLS.md §5.8): at most {@code
 * maxConcurrentPartitions} passes at once, each bounded by {@code partitionRunTimeout}; a task
 * whose pass reports more work runs again after {@code continuationDelay}, behind the tasks
 * already waiting, up to {@code maxPassesPerTask} (then it is deferred); a failed pass is retried
 * with exponential backoff and jitter until {@code maxAttempts} consecutive failures. Which
 * partitions exist and how often to run are the caller's decisions: call {@link #run} on a
 * schedule (a {@code LeaseHeldException} just means another instance is on it; it is retried and
 * then reported as failed for this run).
 *
 * <p>Thread-safety: safe for concurrent use; concurrent runs share the worker threads.
 */
public final class Scheduler implements AutoCloseable {
  private final Runner runner;
  private final SchedulerOptions options;
  private final ExecutorService workers;
  private final ScheduledExecutorService timer;
  private final boolean ownsWorkers;
  private final boolean ownsTimer;

  public Scheduler(Runner runner, SchedulerOptions options) {
    this.runner = Objects.requireNonNull(runner, "runner");
    this.options = Objects.requireNonNull(options, "options");
    AtomicInteger n = new AtomicInteger();
    ExecutorService w = options.workers();
    ownsWorkers = w == null;
    this.workers = w != null ? w : Executors.newFixedThreadPool(options.maxConcurrentPartitions(), r -> {
      Thread t = new Thread(r, "objlog-lifecycle-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    ScheduledExecutorService s = options.timer();
    ownsTimer = s == null;
    if (s == null) {
      ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(1, r -> {
        Thread t = new Thread(r, "objlog-lifecycle-timer");
        t.setDaemon(true);
        return t;
      });
      pool.setRemoveOnCancelPolicy(true);
      s = pool;
    }
    this.timer = s;
  }

  /**
   * Runs every distinct task until it completes, fails or is deferred, and waits for all.
   *
   * @throws InterruptedException if interrupted while waiting; passes already running finish
   */
  public ScheduleResult run(List<Task> tasks) throws InterruptedException {
    List<Task> distinct = new ArrayList<>(new LinkedHashSet<>(tasks));
    Run run = new Run(distinct.size());
    for (Task task : distinct) {
      run.start(new TaskState(task));
    }
    try {
      run.done.await();
    } finally {
      run.cancelled = true;
    }
    return new ScheduleResult(distinct.size(), run.completed.get(), run.failed.get(),
        run.deferred.get(), run.passes.get(), run.retries.get(), run.continuations.get());
  }

  /** The retry delay after {@code failures} consecutive failures (1-based), with jitter. */
  Duration backoff(int failures) {
    long initial = options.retryInitialBackoff().toNanos();
    long max = options.retryMaxBackoff().toNanos();
    long base = initial;
    for (int i = 1; i < failures && base < max; i++) {
      base = base > max / 2 ? max : base * 2;
    }
    base = Math.min(base, max);
    double jitter = options.retryJitterFraction() * (2 * options.random().nextDouble() - 1);
    return Duration.ofNanos(Math.max(0, (long) (base * (1 + jitter))));
  }

  @Override
  public void close() {
    if (ownsWorkers) {
      workers.shutdownNow();
    }
    if (ownsTimer) {
      timer.shutdownNow();
    }
  }

  private static final class TaskState {
    final Task task;
    int passes;
    int successes;
    int failures;

    TaskState(Task task) {
      this.task = task;
    }
  }

  private final class Run {
    final CountDownLatch done;
    final AtomicInteger completed = new AtomicInteger();
    final AtomicInteger failed = new AtomicInteger();
    final AtomicInteger deferred = new AtomicInteger();
    final AtomicLong passes = new AtomicLong();
    final AtomicLong retries = new AtomicLong();
    final AtomicLong continuations = new AtomicLong();
    volatile boolean cancelled;

    Run(int tasks) {
      done = new CountDownLatch(tasks);
    }

    void start(TaskState state) {
      submit(state, Duration.ZERO);
    }

    private void submit(TaskState state, Duration delay) {
      if (cancelled) {
        done.countDown();
        return;
      }
      try {
        if (delay.isZero()) {
          workers.execute(() -> pass(state));
        } else {
          timer.schedule(() -> submit(state, Duration.ZERO), delay.toNanos(), TimeUnit.NANOSECONDS);
        }
      } catch (RejectedExecutionException e) {
        failed.incrementAndGet();
        done.countDown();
      }
    }

    private void pass(TaskState state) {
      if (cancelled) {
        done.countDown();
        return;
      }
      state.passes++;
      passes.incrementAndGet();
      long start = System.nanoTime();
      Thread worker = Thread.currentThread();
      Object guard = new Object();
      boolean[] finished = {false};
      boolean[] timedOut = {false};
      ScheduledFuture<?> watchdog = timer.schedule(() -> {
        synchronized (guard) {
          if (!finished[0]) {
            timedOut[0] = true;
            worker.interrupt();
          }
        }
      }, options.partitionRunTimeout().toNanos(), TimeUnit.NANOSECONDS);
      ReclaimResult result = null;
      Throwable error = null;
      try {
        result = runner.run(state.task);
      } catch (RuntimeException | Error e) {
        error = e;
      } finally {
        watchdog.cancel(false);
        synchronized (guard) {
          finished[0] = true;
        }
        if (timedOut[0]) {
          Thread.interrupted(); // the interrupt was ours; do not leak it into the pool
        }
      }
      if (timedOut[0] && error != null) {
        error = new ObjlogException("lifecycle: " + state.task + " pass timed out after "
            + options.partitionRunTimeout(), error);
      }
      Duration duration = Duration.ofNanos(System.nanoTime() - start);
      if (error != null || result == null) {
        if (error == null) {
          error = new ObjlogException("lifecycle: the runner returned no result for " + state.task);
        }
        state.failures++;
        if (state.failures >= options.maxAttempts()) {
          failed.incrementAndGet();
          emit(new SchedulerEvent(state.task, state.failures, state.passes, duration, null, error,
              Duration.ZERO, true, false));
          done.countDown();
          return;
        }
        Duration delay = backoff(state.failures);
        retries.incrementAndGet();
        emit(new SchedulerEvent(state.task, state.failures, state.passes, duration, null, error,
            delay, false, false));
        submit(state, delay);
        return;
      }
      state.failures = 0;
      state.successes++;
      if (!result.hasMore()) {
        completed.incrementAndGet();
        emit(new SchedulerEvent(state.task, 0, state.passes, duration, result, null, Duration.ZERO,
            true, false));
        done.countDown();
        return;
      }
      if (state.successes >= options.maxPassesPerTask()) {
        deferred.incrementAndGet();
        emit(new SchedulerEvent(state.task, 0, state.passes, duration, result, null, Duration.ZERO,
            true, true));
        done.countDown();
        return;
      }
      continuations.incrementAndGet();
      emit(new SchedulerEvent(state.task, 0, state.passes, duration, result, null,
          options.continuationDelay(), false, false));
      submit(state, options.continuationDelay());
    }

    private void emit(SchedulerEvent event) {
      try {
        options.observer().onEvent(event);
      } catch (RuntimeException e) {
        // An observer's failure must not stop maintenance.
      }
    }
  }

  @Override
  public String toString() {
    return "Scheduler[" + options.maxConcurrentPartitions() + " at once]";
  }
}
