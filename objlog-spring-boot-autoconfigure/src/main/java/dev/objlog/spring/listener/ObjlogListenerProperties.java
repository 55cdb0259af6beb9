package dev.objlog.spring.listener;

import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

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
   * Where a listener starts on a partition without a checkpoint: earliest, latest,
   * timestamp:<ISO-8601 instant> or lsn:<n>.
   */
  private String startPosition = "earliest";

  /** When listeners save checkpoints: record, batch, count, time or manual. */
  private CheckpointMode checkpointMode = CheckpointMode.RECORD;

  /** Records between checkpoints in count mode. */
  private int ackCount = 100;

  /** Time between checkpoints in time mode. */
  private Duration ackTime = Duration.ofSeconds(5);

  /** How long stopping a listener waits for the record in hand and the last checkpoint. */
  private Duration shutdownTimeout = Duration.ofSeconds(30);

  private final CheckpointErrors checkpointErrors = new CheckpointErrors();

  private final BackOff backOff = new BackOff();

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

  /** What a partition does when its stored checkpoint cannot be used. */
  public static class CheckpointErrors {

    /** The checkpoint belongs to another stream id (fail, earliest or latest). */
    private CheckpointErrorOutcome mismatch = CheckpointErrorOutcome.FAIL;

    /** The checkpoint is below the partition's retention floor (fail, earliest or latest). */
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

  /** Retries of a failing listener method before the recoverer (or stopping the partition). */
  public static class BackOff {

    /** Time between attempts. */
    private Duration interval = Duration.ofSeconds(1);

    /** Retries after the first attempt. */
    private long maxRetries = 3;

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
