package dev.objlog.internal.read;

import dev.objlog.internal.LocalCommitBus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The one background poller of a reader (PROTOCOLS.md §5.6): every poll interval it refreshes
 * the heads of all watched partitions, at most {@code maxConcurrentRefreshes} at once, giving up
 * on a refresh after {@code refreshTimeout} (the request is not abandoned, and a partition never
 * has two refreshes in flight, because refreshes are single-flight). A changed head wakes the
 * partition's tailers; an unchanged one (a conditional GET without a body) wakes nobody.
 *
 * <p>Watched partitions are reference-counted across watches, and each is subscribed to the local
 * commit bus while watched, so a writer in this JVM wakes tailers without waiting for a poll.
 *
 * <p>Everything runs on the runtime's scheduler; ticks never block a thread waiting for each
 * other. The next tick is scheduled when the current one finishes.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
final class WatchPoller {
  private final DefaultLogReader reader;
  private final ScheduledExecutorService scheduler;
  private final Duration interval;
  private final Duration timeout;
  private final int parallelism;
  private final LocalCommitBus bus;
  private final Map<Integer, Registration> watched = new HashMap<>();
  private boolean started;
  private boolean closed;
  private @Nullable ScheduledFuture<?> nextTick;

  private static final class Registration {
    int count;
    final LocalCommitBus.Subscription subscription;

    Registration(LocalCommitBus.Subscription subscription) {
      this.subscription = subscription;
    }
  }

  WatchPoller(DefaultLogReader reader) {
    this.reader = reader;
    this.scheduler = reader.runtime().scheduler();
    this.interval = reader.options().pollInterval();
    this.timeout = reader.options().refreshTimeout();
    this.parallelism = reader.options().maxConcurrentRefreshes();
    this.bus = reader.runtime().commitBus();
  }

  synchronized void register(int partition) {
    if (closed) {
      return;
    }
    Registration r = watched.get(partition);
    if (r == null) {
      HeadTracker tracker = reader.partitionReader(partition).tracker;
      r = new Registration(bus.subscribe(tracker.headKey(), tracker::offerLocal));
      watched.put(partition, r);
    }
    r.count++;
    if (!started) {
      started = true;
      schedule(interval);
    }
  }

  synchronized void unregister(int partition) {
    Registration r = watched.get(partition);
    if (r != null && --r.count == 0) {
      watched.remove(partition);
      r.subscription.close();
    }
  }

  synchronized boolean isWatched(int partition) {
    return watched.containsKey(partition);
  }

  private synchronized void schedule(Duration delay) {
    if (closed) {
      return;
    }
    try {
      nextTick = scheduler.schedule(this::tick, delay.toNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      closed = true; // the log is closing
    }
  }

  private void tick() {
    List<Integer> partitions;
    synchronized (this) {
      if (closed) {
        return;
      }
      partitions = new ArrayList<>(watched.keySet());
    }
    if (partitions.isEmpty()) {
      schedule(interval);
      return;
    }
    AtomicInteger next = new AtomicInteger();
    AtomicInteger lanes = new AtomicInteger(Math.min(parallelism, partitions.size()));
    int n = lanes.get();
    for (int i = 0; i < n; i++) {
      lane(partitions, next, lanes);
    }
  }

  /** Refreshes partitions one after the other until none is left; the last lane schedules the next tick. */
  private void lane(List<Integer> partitions, AtomicInteger next, AtomicInteger lanes) {
    int i = next.getAndIncrement();
    if (i >= partitions.size() || isClosed()) {
      if (lanes.decrementAndGet() == 0) {
        schedule(interval);
      }
      return;
    }
    HeadTracker tracker = reader.partitionReader(partitions.get(i)).tracker;
    CompletableFuture<HeadView> mine = tracker.refreshAsync(scheduler, HeadTracker.Source.POLL).copy();
    try {
      ScheduledFuture<?> timer = scheduler.schedule(
          () -> mine.completeExceptionally(new TimeoutException("head refresh took longer than " + timeout)),
          timeout.toNanos(), TimeUnit.NANOSECONDS);
      mine.whenComplete((h, e) -> timer.cancel(false));
    } catch (RejectedExecutionException e) {
      mine.completeExceptionally(e);
    }
    // Failures (store errors, timeouts) are counted by the tracker and retried next tick.
    mine.whenComplete((h, e) -> lane(partitions, next, lanes));
  }

  private synchronized boolean isClosed() {
    return closed;
  }

  synchronized void close() {
    closed = true;
    if (nextTick != null) {
      nextTick.cancel(false);
    }
    for (Registration r : watched.values()) {
      r.subscription.close();
    }
    watched.clear();
  }
}
