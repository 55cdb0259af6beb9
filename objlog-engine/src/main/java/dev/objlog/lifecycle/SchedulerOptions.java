package dev.objlog.lifecycle;

import dev.objlog.InvalidArgumentException;
import java.time.Duration;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link Scheduler} drives its runner (PROTOCOLS.md §5.8). Defaults: 8 partitions at once,
 * 30 s per pass, 64 passes per task, 5 consecutive failures, backoff 250 ms doubling to 30 s with
 * ±20 % jitter, continuations after 10 ms.
 *
 * <p>Thread-safety: immutable; build with {@link #builder()}.
 *
 * @param maxConcurrentPartitions passes running at once
 * @param partitionRunTimeout a pass still running after this is interrupted and counts as failed
 * @param maxPassesPerTask successful passes of one task per run; a task still reporting more work
 *     at the cap is deferred to the next run
 * @param maxAttempts consecutive failures after which a task fails for this run
 * @param retryInitialBackoff delay before the first retry
 * @param retryMaxBackoff cap of the doubling retry delay
 * @param retryJitterFraction ± fraction of randomness on retry delays (0..1)
 * @param continuationDelay delay before a task that reported more work runs again (behind the
 *     tasks already waiting, so partitions are served fairly)
 * @param observer told about every pass
 * @param random source of jitter
 * @param workers runs the passes; null means the scheduler's own daemon threads
 * @param timer runs delays and timeouts; null means the scheduler's own daemon thread
 */
public record SchedulerOptions(
    int maxConcurrentPartitions,
    Duration partitionRunTimeout,
    int maxPassesPerTask,
    int maxAttempts,
    Duration retryInitialBackoff,
    Duration retryMaxBackoff,
    double retryJitterFraction,
    Duration continuationDelay,
    SchedulerObserver observer,
    Random random,
    @Nullable ExecutorService workers,
    @Nullable ScheduledExecutorService timer) {

  public SchedulerOptions {
    Objects.requireNonNull(partitionRunTimeout, "partitionRunTimeout");
    Objects.requireNonNull(retryInitialBackoff, "retryInitialBackoff");
    Objects.requireNonNull(retryMaxBackoff, "retryMaxBackoff");
    Objects.requireNonNull(continuationDelay, "continuationDelay");
    Objects.requireNonNull(observer, "observer");
    Objects.requireNonNull(random, "random");
    if (maxConcurrentPartitions < 1 || maxPassesPerTask < 1 || maxAttempts < 1) {
      throw new InvalidArgumentException("maxConcurrentPartitions, maxPassesPerTask and maxAttempts must be positive");
    }
    if (partitionRunTimeout.isNegative() || partitionRunTimeout.isZero()) {
      throw new InvalidArgumentException("partitionRunTimeout must be positive");
    }
    if (retryInitialBackoff.isNegative() || retryMaxBackoff.compareTo(retryInitialBackoff) < 0
        || continuationDelay.isNegative()) {
      throw new InvalidArgumentException("backoffs must be non-negative, with the maximum at least the initial");
    }
    if (!(retryJitterFraction >= 0 && retryJitterFraction <= 1)) {
      throw new InvalidArgumentException("retryJitterFraction must be 0..1, was " + retryJitterFraction);
    }
  }

  public static SchedulerOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds {@link SchedulerOptions}. Not thread-safe. */
  public static final class Builder {
    private int maxConcurrentPartitions = 8;
    private Duration partitionRunTimeout = Duration.ofSeconds(30);
    private int maxPassesPerTask = 64;
    private int maxAttempts = 5;
    private Duration retryInitialBackoff = Duration.ofMillis(250);
    private Duration retryMaxBackoff = Duration.ofSeconds(30);
    private double retryJitterFraction = 0.2;
    private Duration continuationDelay = Duration.ofMillis(10);
    private SchedulerObserver observer = SchedulerObserver.NONE;
    private Random random = new Random();
    private @Nullable ExecutorService workers;
    private @Nullable ScheduledExecutorService timer;

    private Builder() {}

    public Builder maxConcurrentPartitions(int value) {
      maxConcurrentPartitions = value;
      return this;
    }

    public Builder partitionRunTimeout(Duration value) {
      partitionRunTimeout = value;
      return this;
    }

    public Builder maxPassesPerTask(int value) {
      maxPassesPerTask = value;
      return this;
    }

    public Builder maxAttempts(int value) {
      maxAttempts = value;
      return this;
    }

    public Builder retryBackoff(Duration initial, Duration max) {
      retryInitialBackoff = initial;
      retryMaxBackoff = max;
      return this;
    }

    public Builder retryJitterFraction(double value) {
      retryJitterFraction = value;
      return this;
    }

    public Builder continuationDelay(Duration value) {
      continuationDelay = value;
      return this;
    }

    public Builder observer(SchedulerObserver value) {
      observer = value;
      return this;
    }

    public Builder random(Random value) {
      random = value;
      return this;
    }

    public Builder workers(@Nullable ExecutorService value) {
      workers = value;
      return this;
    }

    public Builder timer(@Nullable ScheduledExecutorService value) {
      timer = value;
      return this;
    }

    public SchedulerOptions build() {
      return new SchedulerOptions(maxConcurrentPartitions, partitionRunTimeout, maxPassesPerTask,
          maxAttempts, retryInitialBackoff, retryMaxBackoff, retryJitterFraction, continuationDelay,
          observer, random, workers, timer);
    }
  }
}
