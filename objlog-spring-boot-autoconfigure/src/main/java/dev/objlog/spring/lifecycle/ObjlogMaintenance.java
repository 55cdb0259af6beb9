package dev.objlog.spring.lifecycle;

import dev.objlog.InvalidArgumentException;
import dev.objlog.LsnExpiredException;
import dev.objlog.Objlog;
import dev.objlog.PartitionHead;
import dev.objlog.RetentionGate;
import dev.objlog.RetentionRequest;
import dev.objlog.RetentionResult;
import dev.objlog.lifecycle.DeleteRateLimiter;
import dev.objlog.lifecycle.ReclaimResult;
import dev.objlog.lifecycle.Reclaimer;
import dev.objlog.lifecycle.ReclaimerOptions;
import dev.objlog.lifecycle.Runner;
import dev.objlog.lifecycle.Task;
import dev.objlog.lifecycle.TokenBucketDeleteLimiter;
import dev.objlog.read.Freshness;
import dev.objlog.read.PartitionReader;
import dev.objlog.read.ReadResult;
import dev.objlog.spring.core.ObjlogStream;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.ObjlogTemplate;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The retention and reclaim operations on the configured streams, by stream name, shared by the
 * lifecycle schedule and the actuator endpoint's write operations.
 *
 * <ul>
 *   <li>{@link #requestRetention}: writes a retention request with the partition's previous
 *       policy version plus one.
 *   <li>{@link #enforceRetention}: turns a {@link RetentionPolicy} into a request, only when it
 *       advances the partition's mailbox.
 *   <li>{@link #applyRetention}: applies the pending request through this instance's open writer
 *       of the partition ({@link ObjlogTemplate#applyRetention}).
 *   <li>{@link #reclaim} and {@link #scrub}: one pass of the engine's {@link Reclaimer} with the
 *       {@code objlog.lifecycle.*} budgets and delete delay; one reclaimer per stream, one delete
 *       rate limiter for all of them, one pass at a time per partition from this process.
 * </ul>
 *
 * <p>Thread-safety: safe for concurrent use. {@link #close()} closes the reclaimers.
 */
public class ObjlogMaintenance implements AutoCloseable {
  private final ObjlogStreams streams;
  private final @Nullable ObjlogTemplate template;
  private final ReclaimerOptions reclaimerOptions;
  private final Clock clock;
  private final Map<String, Reclaimer> reclaimers = new ConcurrentHashMap<>();
  private final Map<String, ReentrantLock> partitionLocks = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /**
   * @param streams the configured streams
   * @param template whose open writers apply retention; null: this instance applies none
   * @param properties the reclaim budgets and delete delay
   * @param clock the time source of retention ages and the reclaimers' delete delay
   * @throws InvalidArgumentException if a budget is out of the engine's range
   */
  public ObjlogMaintenance(ObjlogStreams streams, @Nullable ObjlogTemplate template,
      ObjlogLifecycleProperties properties, Clock clock) {
    this.streams = Objects.requireNonNull(streams, "streams");
    this.template = template;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.reclaimerOptions = reclaimerOptions(properties, clock);
  }

  /** The engine options of this instance's reclaimers, from {@code objlog.lifecycle.*}. */
  public static ReclaimerOptions reclaimerOptions(ObjlogLifecycleProperties properties, Clock clock) {
    double rate = properties.getDeleteRate();
    if (rate < 0 || Double.isNaN(rate)) {
      throw new InvalidArgumentException("objlog.lifecycle.delete-rate must be 0 (no limit) or more, was " + rate);
    }
    DeleteRateLimiter limiter = rate == 0
        ? DeleteRateLimiter.UNLIMITED
        : TokenBucketDeleteLimiter.of(rate, (int) Math.max(1, Math.min(1000, Math.ceil(rate))));
    return ReclaimerOptions.builder()
        .deleteDelay(properties.getDeleteDelay())
        .maxPassDuration(properties.getMaxPassDuration())
        .maxObjectsPerRun(properties.getMaxObjectsPerRun())
        .maxDeletesPerRun(properties.getMaxDeletesPerRun())
        .maxDeleteBytes(properties.getMaxDeleteSize().toBytes())
        .deleteRateLimiter(limiter)
        .clock(clock)
        .build();
  }

  public ObjlogStreams streams() {
    return streams;
  }

  /** The reclaimer options every pass uses. */
  public ReclaimerOptions reclaimerOptions() {
    return reclaimerOptions;
  }

  /**
   * Requests retention of a partition below {@code beforeLsn}, with the partition's previous
   * policy version plus one. Changes nothing readable until a writer applies it.
   *
   * @throws dev.objlog.RetentionRegressionException if {@code beforeLsn} is below the pending
   *     request, or a concurrent request took the version
   */
  public RetentionRequest requestRetention(String streamName, int partition, long beforeLsn) {
    return requestRetention(streamName, partition, beforeLsn, RetentionGate.NONE);
  }

  /** {@link #requestRetention(String, int, long)} lowered to what {@code gate} allows. */
  public RetentionRequest requestRetention(String streamName, int partition, long beforeLsn, RetentionGate gate) {
    Objlog log = log(streamName, partition);
    return log.requestRetention(partition, nextPolicyVersion(log, partition, null), beforeLsn, gate);
  }

  /**
   * Requests what {@code policy} allows for one partition, if that advances the partition's
   * retention: nothing is written when the policy (after the snapshot and consumer gates) trims no
   * further than the pending request or the current floor.
   *
   * @param consumers the gate of the policy's consumer groups, or null to ignore them
   * @return the request made, or empty when nothing advanced
   */
  public Optional<RetentionRequest> enforceRetention(String streamName, int partition, RetentionPolicy policy,
      @Nullable ConsumerRetentionGate consumers) {
    Objlog log = log(streamName, partition);
    if (!policy.hasLimit()) {
      return Optional.empty();
    }
    PartitionReader reader = streams.reader(streamName).partition(partition);
    PartitionHead head = reader.head(Freshness.LATEST);
    long next = head.nextLsn();
    long oldest = head.oldestLsn();
    if (Long.compareUnsigned(next, oldest) <= 0) {
      return Optional.empty(); // nothing readable to trim
    }
    long target = next;
    if (policy.maxRecords() != null) {
      long max = policy.maxRecords();
      target = minUnsigned(target, Long.compareUnsigned(next, max) > 0 ? next - max : 0);
    }
    if (policy.maxAge() != null) {
      long cutoff = clock.millis() - policy.maxAge().toMillis();
      ReadResult first;
      try {
        first = reader.readFromTimestamp(cutoff, 1, Freshness.LATEST);
      } catch (LsnExpiredException e) {
        return Optional.empty(); // retention moved under us; the next run looks again
      }
      long recent = first.isEmpty() ? first.head().nextLsn() : first.records().get(0).lsn();
      target = minUnsigned(target, recent); // with both limits, the one that keeps more wins
    }
    RetentionGate gate = RetentionGate.NONE;
    if (policy.snapshotGate()) {
      gate = log.snapshotGate();
    }
    if (consumers != null && !policy.consumerGroups().isEmpty()) {
      gate = gate.and(p -> consumers.retainableBefore(streamName, p, policy.consumerGroups()));
    }
    long allowed = minUnsigned(target, gate.retainableBefore(partition));
    Optional<RetentionRequest> pending = log.retentionRequest(partition);
    long floor = oldest;
    if (pending.isPresent() && Long.compareUnsigned(pending.get().beforeLsn(), floor) > 0) {
      floor = pending.get().beforeLsn();
    }
    if (Long.compareUnsigned(allowed, floor) <= 0) {
      return Optional.empty();
    }
    RetentionRequest made =
        log.requestRetention(partition, nextPolicyVersion(log, partition, head), target, gate);
    return made.outcome() == RetentionRequest.Outcome.CREATED || made.outcome() == RetentionRequest.Outcome.ADVANCED
        ? Optional.of(made)
        : Optional.empty();
  }

  /**
   * Applies the partition's pending retention request through this instance's open writer of it.
   *
   * @return empty when this instance has no working writer of the partition (or no template)
   */
  public Optional<RetentionResult> applyRetention(String streamName, int partition) {
    log(streamName, partition);
    return template == null ? Optional.empty() : template.applyRetention(streamName, partition);
  }

  /** One reclaim pass of a partition (see {@link Reclaimer#reclaim(int)}). */
  public ReclaimResult reclaim(String streamName, int partition) {
    return run(streamName, Task.reclaim(partition));
  }

  /** One scrub pass of a partition (see {@link Reclaimer#scrub(int)}). */
  public ReclaimResult scrub(String streamName, int partition) {
    return run(streamName, Task.scrub(partition));
  }

  /** One pass of {@code task}, one at a time per partition from this process. */
  public ReclaimResult run(String streamName, Task task) {
    log(streamName, task.partition());
    ReentrantLock lock = partitionLocks.computeIfAbsent(streamName + "/" + task.partition(), k -> new ReentrantLock());
    lock.lock();
    try {
      return reclaimer(streamName).run(task);
    } finally {
      lock.unlock();
    }
  }

  /** Runs the passes of one stream: for the engine's {@code Scheduler}. */
  public Runner runner(String streamName) {
    streams.stream(streamName);
    return task -> run(streamName, task);
  }

  private Reclaimer reclaimer(String streamName) {
    if (closed) {
      throw new IllegalStateException("objlog maintenance is closed");
    }
    return reclaimers.computeIfAbsent(streamName, name -> Reclaimer.create(streams.log(name), reclaimerOptions));
  }

  private Objlog log(String streamName, int partition) {
    ObjlogStream stream = streams.stream(streamName);
    if (partition < 0 || partition >= stream.partitions()) {
      throw new InvalidArgumentException("stream '" + streamName + "' has partitions 0-" + (stream.partitions() - 1)
          + ", not " + partition);
    }
    return streams.log(streamName);
  }

  private static long nextPolicyVersion(Objlog log, int partition, @Nullable PartitionHead head) {
    long last = log.retentionRequest(partition).map(RetentionRequest::policyVersion).orElse(0L);
    if (head != null && Long.compareUnsigned(head.appliedRetentionVersion(), last) > 0) {
      last = head.appliedRetentionVersion();
    }
    return last + 1;
  }

  private static long minUnsigned(long a, long b) {
    return Long.compareUnsigned(a, b) <= 0 ? a : b;
  }

  @Override
  public void close() {
    closed = true;
    reclaimers.values().forEach(Reclaimer::close);
    reclaimers.clear();
  }

  @Override
  public String toString() {
    return "ObjlogMaintenance[streams=" + streams.names() + ", deleteDelay=" + reclaimerOptions.deleteDelay() + "]";
  }
}
