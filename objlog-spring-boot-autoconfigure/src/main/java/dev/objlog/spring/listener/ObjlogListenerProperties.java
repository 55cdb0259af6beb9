package dev.objlog.spring.listener;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.backoff.ExponentialBackOff;
import org.springframework.util.backoff.FixedBackOff;

/**
 * Defaults of {@code @ObjlogListener} containers ({@code objlog.listener.*}).
 *
 * <p>Thread-safety: bound once at startup; not safe for concurrent modification.
 */
@ConfigurationProperties("objlog.listener")
public class ObjlogListenerProperties {

  /**
   * How often listeners refresh the heads of their partitions from the store, to see records of
   * writers in other processes. Commits in this JVM wake listeners at once. Unset: objlog.reader.poll-interval.
   */
  private @Nullable Duration pollInterval;

  /**
   * Where a listener starts on a partition without a checkpoint: earliest, latest, snapshot (the
   * newest snapshot, handed to the bean's SnapshotAwareListener), timestamp:<ISO-8601 instant> or
   * lsn:<n>.
   */
  private String startPosition = "earliest";

  /** When listeners save checkpoints: record, batch, count, time or manual. */
  private CheckpointMode checkpointMode = CheckpointMode.RECORD;

  /**
   * Whether listeners save their checkpoints (record, batch, count and time modes) on the partition's
   * thread before reading on, as spring-kafka's syncCommits does. False: a background saver per
   * partition saves the newest processed position, one save at a time, while the partition reads a
   * backlog (once caught up it finishes the saves itself before waiting); delivery stays at least once (a checkpoint never names a record whose method has not
   * returned, and stopping or handing a partition over saves its last position first), but a
   * crash may redeliver the records processed while the last save was running. Manual mode and
   * transactional listeners always save synchronously.
   */
  private boolean syncCheckpoints = true;

  /** Records between checkpoints in count mode. */
  private int ackCount = 100;

  /** Time between checkpoints in time mode. */
  private Duration ackTime = Duration.ofSeconds(5);

  /** How long stopping a listener waits for the record in hand and the last checkpoint. */
  private Duration shutdownTimeout = Duration.ofSeconds(30);

  /**
   * Publish an ObjlogListenerContainerEvent.Idle when a partition received no record for this
   * long (and again each further interval). Unset: no idle events.
   */
  private @Nullable Duration idleEventInterval;

  private final CheckpointErrors checkpointErrors = new CheckpointErrors();

  private final BackOff backOff = new BackOff();

  /**
   * This instance's id in listener groups: the owner of the partition leases it takes. Unset:
   * host name, process id and a random suffix, chosen once per application context.
   */
  private @Nullable String instanceId;

  private final Group group = new Group();

  private @Nullable String generatedInstanceId;

  public @Nullable Duration getIdleEventInterval() {
    return idleEventInterval;
  }

  public void setIdleEventInterval(@Nullable Duration idleEventInterval) {
    if (idleEventInterval != null && (idleEventInterval.isNegative() || idleEventInterval.isZero())) {
      throw new IllegalArgumentException("objlog.listener.idle-event-interval must be positive, not " + idleEventInterval);
    }
    this.idleEventInterval = idleEventInterval;
  }

  public @Nullable Duration getPollInterval() {
    return pollInterval;
  }

  public void setPollInterval(@Nullable Duration pollInterval) {
    this.pollInterval = pollInterval;
  }

  public String getStartPosition() {
    return startPosition;
  }

  public void setStartPosition(String startPosition) {
    this.startPosition = startPosition;
  }

  public CheckpointMode getCheckpointMode() {
    return checkpointMode;
  }

  public void setCheckpointMode(CheckpointMode checkpointMode) {
    this.checkpointMode = checkpointMode;
  }

  public boolean isSyncCheckpoints() {
    return syncCheckpoints;
  }

  public void setSyncCheckpoints(boolean syncCheckpoints) {
    this.syncCheckpoints = syncCheckpoints;
  }

  public int getAckCount() {
    return ackCount;
  }

  public void setAckCount(int ackCount) {
    this.ackCount = ackCount;
  }

  public Duration getAckTime() {
    return ackTime;
  }

  public void setAckTime(Duration ackTime) {
    this.ackTime = ackTime;
  }

  public Duration getShutdownTimeout() {
    return shutdownTimeout;
  }

  public void setShutdownTimeout(Duration shutdownTimeout) {
    this.shutdownTimeout = shutdownTimeout;
  }

  public CheckpointErrors getCheckpointErrors() {
    return checkpointErrors;
  }

  public BackOff getBackOff() {
    return backOff;
  }

  public @Nullable String getInstanceId() {
    return instanceId;
  }

  public void setInstanceId(@Nullable String instanceId) {
    this.instanceId = instanceId;
  }

  /** The configured instance id, or one generated on first use and kept. */
  synchronized String instanceIdOrDefault() {
    if (instanceId != null && !instanceId.isBlank()) {
      return instanceId;
    }
    if (generatedInstanceId == null) {
      String host;
      try {
        host = InetAddress.getLocalHost().getHostName();
      } catch (java.io.IOException | RuntimeException e) {
        host = "unknown-host";
      }
      host = host.replaceAll("[/\\\\\\p{Cntrl}]", "_");
      if (host.length() > 200) {
        host = host.substring(0, 200);
      }
      generatedInstanceId = host + "-" + ManagementFactory.getRuntimeMXBean().getPid() + "-"
          + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    }
    return generatedInstanceId;
  }

  public Group getGroup() {
    return group;
  }

  /**
   * Partition leases of listeners with a group. A partition stops at (last successful renewal +
   * lease-ttl - safety-margin) unless renewed again; others can take it at (+ lease-ttl).
   */
  public static class Group {

    /**
     * How long a partition lease of a group listener lasts from its last renewal; another
     * instance can take the partition when it expires.
     */
    private Duration leaseTtl = Duration.ofSeconds(60);

    /**
     * How often a group member renews its leases, counts the members and rebalances; must be
     * shorter than lease-ttl minus safety-margin.
     */
    private Duration renewInterval = Duration.ofSeconds(15);

    /**
     * How long before its lease expires a member stops a partition it could not renew: covers the
     * record in hand and clock differences between instances.
     */
    private Duration safetyMargin = Duration.ofSeconds(15);

    public Duration getLeaseTtl() {
      return leaseTtl;
    }

    public void setLeaseTtl(Duration leaseTtl) {
      this.leaseTtl = leaseTtl;
    }

    public Duration getRenewInterval() {
      return renewInterval;
    }

    public void setRenewInterval(Duration renewInterval) {
      this.renewInterval = renewInterval;
    }

    public Duration getSafetyMargin() {
      return safetyMargin;
    }

    public void setSafetyMargin(Duration safetyMargin) {
      this.safetyMargin = safetyMargin;
    }
  }

  /** What a partition does when its stored checkpoint cannot be used. */
  public static class CheckpointErrors {

    /** The checkpoint belongs to another stream id (fail, earliest or latest). */
    private CheckpointErrorOutcome mismatch = CheckpointErrorOutcome.FAIL;

    /**
     * The checkpoint is below the partition's retention floor (fail, earliest, latest or snapshot:
     * the newest snapshot, handed to the bean's SnapshotAwareListener).
     */
    private CheckpointErrorOutcome expired = CheckpointErrorOutcome.FAIL;

    /** The checkpoint is beyond the partition's next LSN (fail, earliest or latest). */
    private CheckpointErrorOutcome ahead = CheckpointErrorOutcome.FAIL;

    public CheckpointErrorOutcome getMismatch() {
      return mismatch;
    }

    public void setMismatch(CheckpointErrorOutcome mismatch) {
      this.mismatch = mismatch;
    }

    public CheckpointErrorOutcome getExpired() {
      return expired;
    }

    public void setExpired(CheckpointErrorOutcome expired) {
      this.expired = expired;
    }

    public CheckpointErrorOutcome getAhead() {
      return ahead;
    }

    public void setAhead(CheckpointErrorOutcome ahead) {
      this.ahead = ahead;
    }
  }

  /**
   * Retries of a failing listener method before the recoverer (or stopping the partition), by the
   * auto-configured error handler. Failures to convert or validate the payload are not retried.
   */
  public static class BackOff {

    /** Time between attempts; with a multiplier above 1, before the first retry. */
    private Duration interval = Duration.ofSeconds(1);

    /** Retries after the first attempt. */
    private long maxRetries = 3;

    /**
     * Factor each interval grows by over the previous one (exponential back-off); 1: a fixed
     * interval.
     */
    private double multiplier = 1.0;

    /** Longest interval of an exponential back-off (multiplier above 1). */
    private Duration maxInterval = Duration.ofSeconds(30);

    /** The back-off these properties describe: fixed, or exponential with a multiplier above 1. */
    public org.springframework.util.backoff.BackOff toBackOff() {
      if (multiplier == 1.0) {
        return new FixedBackOff(interval.toMillis(), maxRetries);
      }
      ExponentialBackOff backOff = new ExponentialBackOff(interval.toMillis(), multiplier);
      backOff.setMaxInterval(Math.max(interval.toMillis(), maxInterval.toMillis()));
      backOff.setMaxAttempts(maxRetries);
      return backOff;
    }

    public double getMultiplier() {
      return multiplier;
    }

    public void setMultiplier(double multiplier) {
      if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
        throw new IllegalArgumentException("objlog.listener.back-off.multiplier must be at least 1, not " + multiplier);
      }
      this.multiplier = multiplier;
    }

    public Duration getMaxInterval() {
      return maxInterval;
    }

    public void setMaxInterval(Duration maxInterval) {
      if (maxInterval.isNegative()) {
        throw new IllegalArgumentException("objlog.listener.back-off.max-interval must not be negative, not "
            + maxInterval);
      }
      this.maxInterval = maxInterval;
    }

    public Duration getInterval() {
      return interval;
    }

    public void setInterval(Duration interval) {
      this.interval = interval;
    }

    public long getMaxRetries() {
      return maxRetries;
    }

    public void setMaxRetries(long maxRetries) {
      this.maxRetries = maxRetries;
    }
  }
}
