package dev.objlog.spring.lifecycle;

import dev.objlog.Objlog;
import dev.objlog.RetentionGate;
import dev.objlog.RetentionResult;
import dev.objlog.lifecycle.ConsumerFloors;
import dev.objlog.lifecycle.UntilConsumedRetention;
import dev.objlog.lifecycle.ScheduleResult;
import dev.objlog.lifecycle.Scheduler;
import dev.objlog.lifecycle.SchedulerEvent;
import dev.objlog.lifecycle.SchedulerOptions;
import dev.objlog.lifecycle.Task;
import dev.objlog.spring.core.ObjlogStream;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.context.SmartLifecycle;

/**
 * The lifecycle schedule ({@code objlog.lifecycle.enabled=true}): every {@code
 * objlog.lifecycle.interval}, for every configured stream,
 *
 * <ol>
 *   <li>turns the stream's retention policy into retention requests, one per partition whose
 *       retention it advances (with the previous policy version plus one); with {@code
 *       retention.until-consumed.enabled}, an {@link UntilConsumedRetention} advances it to what
 *       the stream's consumers have applied, and while the schedule runs this instance's writers
 *       apply no retention beyond that (whoever requested it);
 *   <li>applies pending requests through this instance's open writers (other partitions are
 *       applied by the instance that writes them);
 *   <li>runs a reclaim pass of every partition, and every {@code objlog.lifecycle.scrub-interval}
 *       a scrub pass, through the engine's {@link Scheduler} (concurrency, retries with backoff,
 *       continuation while a pass reports more work). Reclaim leases keep instances that run it at
 *       the same time from deleting twice.
 * </ol>
 *
 * <p>Failures are logged and counted ({@link #failures()}) and the next run tries again; the
 * engine's meters ({@code objlog.lifecycle.*}, {@code objlog.retention.*}) record the passes,
 * deletes, requests and applies.
 *
 * <p>{@link #stop()} cancels the schedule, interrupts a run in progress and waits for it at most
 * {@code objlog.lifecycle.max-pass-duration}; it runs before the template closes its writers.
 *
 * <p>Thread-safety: safe for concurrent use; runs never overlap.
 */
public class ObjlogLifecycleScheduler implements SmartLifecycle {
  private static final Log logger = LogFactory.getLog(ObjlogLifecycleScheduler.class);

  private final ObjlogMaintenance maintenance;
  private final Map<String, RetentionPolicy> policies;
  private final @Nullable ConsumerRetentionGate consumers;
  private final ObjlogLifecycleProperties properties;
  private final Clock clock;
  private final ReentrantLock runLock = new ReentrantLock();
  private final Object lifecycleMonitor = new Object();
  private final AtomicLong failures = new AtomicLong();
  private final AtomicLong runs = new AtomicLong();
  private final Map<String, Scheduler> schedulers = new LinkedHashMap<>(); // guarded by runLock
  private @Nullable ScheduledExecutorService timer; // guarded by lifecycleMonitor
  private volatile boolean running;
  private volatile @Nullable Instant lastScrub;
  private volatile @Nullable Run lastRun;
  /** Until-consumed retention by stream name (streams whose policy enables it). */
  private final Map<String, UntilConsumedRetention> untilConsumed = new LinkedHashMap<>();
  /** The writer clamps of the until-consumed streams, held while the schedule runs. */
  private final List<RetentionGate.Hold> holds = new ArrayList<>(); // guarded by lifecycleMonitor

  /**
   * @param maintenance the operations on the configured streams
   * @param policies retention policy by stream name; streams without one keep everything
   * @param consumers where consumer groups are, or null to ignore the policies' consumer groups
   * @param properties interval, scrub interval, concurrency
   * @param clock the time source of the scrub interval (retention ages and delete delays use the
   *     maintenance's clock)
   */
  public ObjlogLifecycleScheduler(ObjlogMaintenance maintenance, Map<String, RetentionPolicy> policies,
      @Nullable ConsumerRetentionGate consumers, ObjlogLifecycleProperties properties, Clock clock) {
    this.maintenance = Objects.requireNonNull(maintenance, "maintenance");
    this.policies = Map.copyOf(policies);
    this.consumers = consumers;
    this.properties = Objects.requireNonNull(properties, "properties");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (properties.getInterval().isNegative() || properties.getInterval().isZero()) {
      throw new IllegalArgumentException("objlog.lifecycle.interval must be positive, was " + properties.getInterval());
    }
    for (String name : policies.keySet()) {
      maintenance.streams().stream(name);
    }
    policies.forEach((name, policy) -> {
      RetentionPolicy.UntilConsumed u = policy.untilConsumed();
      if (u != null) {
        untilConsumed.put(name, untilConsumed(name, policy, u));
      }
    });
    if (consumers == null) {
      policies.forEach((name, policy) -> {
        if (!policy.consumerGroups().isEmpty()) {
          logger.warn("objlog.streams." + name + ".retention.consumer-groups " + policy.consumerGroups()
              + " is ignored: there is no ConsumerRetentionGate bean (it comes with @ObjlogListener support)."
              + " Retention may trim records those groups have not consumed.");
        }
      });
    }
  }

  /**
   * The policy of one until-consumed stream: floors of its consumer groups and of the groups the
   * consumer gate knows consume it (its listeners; from their bucket, JDBC or memory checkpoints,
   * through the gate) and of every consumer checkpoint in the bucket.
   */
  private UntilConsumedRetention untilConsumed(String name, RetentionPolicy policy, RetentionPolicy.UntilConsumed u) {
    Objlog log = maintenance.streams().log(name);
    ConsumerFloors floors = ConsumerFloors.inBucket(log);
    ConsumerRetentionGate gate = consumers;
    List<String> configured = policy.consumerGroups();
    if (gate != null) {
      // asked on every run, so listeners registered (or started) after this count as well
      floors = ((ConsumerFloors) p -> {
        Set<String> groups = new LinkedHashSet<>(configured);
        groups.addAll(gate.registeredGroups(name, p));
        return groups.isEmpty() ? List.of() : gate.floors(name, p, List.copyOf(groups));
      }).and(floors);
    }
    return UntilConsumedRetention.builder(log, floors)
        .keepRecords(u.keepRecords())
        .expireAfter(u.expireAfter())
        .warnAfter(u.warnAfter())
        .warnings(message -> logger.warn(message + " (objlog.streams." + name + ".retention.until-consumed)"))
        .build();
  }

  /**
   * Who holds back until-consumed retention of a partition, as the last run found it: empty when
   * nothing does, or the stream has no until-consumed retention.
   */
  public Optional<UntilConsumedRetention.Holder> retentionHeldBy(String streamName, int partition) {
    UntilConsumedRetention policy = untilConsumed.get(streamName);
    return policy == null ? Optional.empty() : policy.heldBy(partition);
  }

  /** Whether {@code streamName} has until-consumed retention. */
  public boolean isUntilConsumed(String streamName) {
    return untilConsumed.containsKey(streamName);
  }

  /**
   * What one run did.
   *
   * @param started when it started (the scheduler's clock)
   * @param retentionRequests retention requests made
   * @param retentionApplied pending requests applied by this instance's writers
   * @param reclaim the engine scheduler's results, by stream name
   * @param scrubbed whether scrub passes ran
   * @param failures steps that failed (logged)
   */
  public record Run(Instant started, int retentionRequests, int retentionApplied, Map<String, ScheduleResult> reclaim,
      boolean scrubbed, int failures) {
    public Run {
      reclaim = Map.copyOf(reclaim);
    }

    /** Reclaim and scrub tasks that failed every attempt, over all streams. */
    public int failedTasks() {
      return reclaim.values().stream().mapToInt(ScheduleResult::failed).sum();
    }
  }

  @Override
  public void start() {
    synchronized (lifecycleMonitor) {
      if (running) {
        return;
      }
      ScheduledExecutorService t = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "objlog-lifecycle-schedule");
        thread.setDaemon(true);
        return thread;
      });
      long interval = properties.getInterval().toMillis();
      t.scheduleWithFixedDelay(this::scheduledRun, interval, interval, TimeUnit.MILLISECONDS);
      timer = t;
      // this instance's writers refuse to apply retention beyond what the consumers applied
      untilConsumed.forEach((name, policy) -> holds.add(maintenance.streams().log(name).holdRetention(policy.gate())));
      running = true;
      logger.info("objlog lifecycle schedule started: every " + properties.getInterval() + ", delete delay "
          + properties.getDeleteDelay() + ", scrub every " + properties.getScrubInterval() + ", retention policies "
          + policies.keySet());
    }
  }

  @Override
  public void stop() {
    ScheduledExecutorService t;
    synchronized (lifecycleMonitor) {
      if (!running) {
        return;
      }
      running = false;
      t = timer;
      timer = null;
      holds.forEach(RetentionGate.Hold::close);
      holds.clear();
    }
    if (t != null) {
      t.shutdownNow(); // cancels the schedule and interrupts a run in progress
      try {
        if (!t.awaitTermination(properties.getMaxPassDuration().toMillis(), TimeUnit.MILLISECONDS)) {
          logger.warn("objlog lifecycle run did not stop within " + properties.getMaxPassDuration()
              + "; its pass resumes from its checkpoint on the next run");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    // A manual runNow() may still hold the lock: wait for it as long as for a scheduled run.
    boolean locked = false;
    try {
      locked = runLock.tryLock(properties.getMaxPassDuration().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (locked) {
      try {
        schedulers.values().forEach(Scheduler::close);
        schedulers.clear();
      } finally {
        runLock.unlock();
      }
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /** Number of runs so far. */
  public long runs() {
    return runs.get();
  }

  /** Steps that failed so far (each logged). */
  public long failures() {
    return failures.get();
  }

  /** What the last completed run did. */
  public Optional<Run> lastRun() {
    return Optional.ofNullable(lastRun);
  }

  private void scheduledRun() {
    try {
      runNow();
    } catch (RuntimeException e) {
      failures.incrementAndGet();
      logger.warn("objlog lifecycle run failed; the next run tries again", e);
    }
  }

  /**
   * Runs the schedule's work once now, waiting for a run in progress first: retention requests,
   * applies, then reclaim (and scrub when due) of every configured partition.
   */
  public Run runNow() {
    runLock.lock();
    try {
      return doRun();
    } finally {
      runLock.unlock();
    }
  }

  private Run doRun() {
    Instant started = clock.instant();
    int requests = 0;
    int applied = 0;
    int failed = 0;
    for (ObjlogStream stream : maintenance.streams().streams()) {
      RetentionPolicy policy = policies.get(stream.name());
      for (int p = 0; p < stream.partitions() && !Thread.currentThread().isInterrupted(); p++) {
        UntilConsumedRetention consumed = untilConsumed.get(stream.name());
        if (consumed != null) {
          try {
            if (consumed.run(p).request().isPresent()) {
              requests++;
            }
          } catch (RuntimeException e) {
            failed++;
            logger.warn("objlog lifecycle: until-consumed retention of partition " + p + " of stream '" + stream.name()
                + "' failed; the next run tries again: " + e);
          }
        }
        if (policy != null && policy.hasLimit()) {
          try {
            if (maintenance.enforceRetention(stream.name(), p, policy, consumers).isPresent()) {
              requests++;
            }
          } catch (RuntimeException e) {
            failed++;
            logger.warn("objlog lifecycle: requesting retention of partition " + p + " of stream '" + stream.name()
                + "' failed; the next run tries again: " + e);
          }
        }
        try {
          Optional<RetentionResult> result = maintenance.applyRetention(stream.name(), p);
          if (result.isPresent() && result.get().applied()) {
            applied++;
            logger.info("objlog lifecycle: applied retention to partition " + p + " of stream '" + stream.name()
                + "': records below LSN " + Long.toUnsignedString(result.get().oldestLsn()) + " are no longer readable");
          }
        } catch (RuntimeException e) {
          failed++;
          logger.warn("objlog lifecycle: applying retention to partition " + p + " of stream '" + stream.name()
              + "' failed; the next run tries again: " + e);
        }
      }
    }
    Instant scrubbedAt = lastScrub;
    boolean scrub = scrubbedAt == null || !clock.instant().isBefore(scrubbedAt.plus(properties.getScrubInterval()));
    Map<String, ScheduleResult> results = new LinkedHashMap<>();
    for (ObjlogStream stream : maintenance.streams().streams()) {
      if (Thread.currentThread().isInterrupted()) {
        break;
      }
      List<Task> tasks = new ArrayList<>();
      for (int p = 0; p < stream.partitions(); p++) {
        tasks.add(Task.reclaim(p));
        if (scrub) {
          tasks.add(Task.scrub(p));
        }
      }
      try {
        ScheduleResult result = scheduler(stream.name()).run(tasks);
        results.put(stream.name(), result);
        failed += result.failed();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      } catch (RuntimeException e) {
        failed++;
        logger.warn("objlog lifecycle: reclaiming stream '" + stream.name() + "' failed; the next run tries again", e);
      }
    }
    if (scrub) {
      lastScrub = started;
    }
    failures.addAndGet(failed);
    runs.incrementAndGet();
    Run run = new Run(started, requests, applied, results, scrub, failed);
    lastRun = run;
    if (logger.isDebugEnabled()) {
      logger.debug("objlog lifecycle run: " + run);
    }
    return run;
  }

  private Scheduler scheduler(String streamName) {
    return schedulers.computeIfAbsent(streamName, name -> new Scheduler(maintenance.runner(name),
        SchedulerOptions.builder()
            .maxConcurrentPartitions(properties.getMaxConcurrentPartitions())
            .partitionRunTimeout(properties.getMaxPassDuration().plus(properties.getMaxPassDuration()))
            .observer(event -> observe(name, event))
            .build()));
  }

  private void observe(String streamName, SchedulerEvent event) {
    if (event.error() != null) {
      String what = event.task() + " of stream '" + streamName + "' (attempt " + event.attempt() + ")";
      if (event.finalPass()) {
        logger.warn("objlog lifecycle: " + what + " failed; the next run tries again: " + event.error());
      } else {
        logger.debug("objlog lifecycle: " + what + " failed, retrying in " + event.nextDelay() + ": " + event.error());
      }
    } else if (event.result() != null && event.result().deletedObjects() > 0) {
      logger.info("objlog lifecycle: " + event.task() + " of stream '" + streamName + "' deleted "
          + event.result().deletedObjects() + " objects (" + event.result().deletedBytes() + " bytes)");
    }
  }

  @Override
  public String toString() {
    return "ObjlogLifecycleScheduler[interval=" + properties.getInterval() + ", policies=" + policies.keySet() + "]";
  }
}
