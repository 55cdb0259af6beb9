package dev.objlog.spring.lifecycle;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * The {@code objlog.lifecycle.*} properties: whether and how often this instance enforces the
 * streams' retention policies and reclaims storage, and the budgets of each reclaim pass.
 *
 * <p>Thread-safety: a mutable binding target; Spring binds it on one thread during startup, after
 * which it is only read.
 */
@ConfigurationProperties("objlog.lifecycle")
public class ObjlogLifecycleProperties {

  /**
   * Whether this instance runs the lifecycle schedule: it requests retention from the streams'
   * retention policies, applies it through its own writers, and reclaims and scrubs every
   * configured partition.
   */
  private boolean enabled;

  /** Time between two runs of the schedule (retention, then reclaim). */
  private Duration interval = Duration.ofMinutes(1);

  /**
   * How long a trimmed retention floor or an orphan object must be old before reclaim deletes
   * anything: readers that found a segment before retention can still read it this long.
   */
  private Duration deleteDelay = Duration.ofHours(24);

  /** Time between two scrubs (orphan segments, unreachable catalog pages) of every partition. */
  private Duration scrubInterval = Duration.ofHours(1);

  /** Objects one reclaim or scrub pass may list. */
  private int maxObjectsPerRun = 10_000;

  /** Objects one reclaim or scrub pass may delete. */
  private int maxDeletesPerRun = 1000;

  /** Bytes one pass may delete (soft: the delete wave that crosses it completes). */
  private DataSize maxDeleteSize = DataSize.ofGigabytes(1);

  /** Deletes per second of all passes of this instance together; 0 for no limit. */
  private double deleteRate = 0;

  /** Time budget of one pass; its lease on the partition lasts three times this long. */
  private Duration maxPassDuration = Duration.ofSeconds(20);

  /** Partitions reclaimed or scrubbed at once. */
  private int maxConcurrentPartitions = 8;

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Duration getInterval() {
    return interval;
  }

  public void setInterval(Duration interval) {
    this.interval = interval;
  }

  public Duration getDeleteDelay() {
    return deleteDelay;
  }

  public void setDeleteDelay(Duration deleteDelay) {
    this.deleteDelay = deleteDelay;
  }

  public Duration getScrubInterval() {
    return scrubInterval;
  }

  public void setScrubInterval(Duration scrubInterval) {
    this.scrubInterval = scrubInterval;
  }

  public int getMaxObjectsPerRun() {
    return maxObjectsPerRun;
  }

  public void setMaxObjectsPerRun(int maxObjectsPerRun) {
    this.maxObjectsPerRun = maxObjectsPerRun;
  }

  public int getMaxDeletesPerRun() {
    return maxDeletesPerRun;
  }

  public void setMaxDeletesPerRun(int maxDeletesPerRun) {
    this.maxDeletesPerRun = maxDeletesPerRun;
  }

  public DataSize getMaxDeleteSize() {
    return maxDeleteSize;
  }

  public void setMaxDeleteSize(DataSize maxDeleteSize) {
    this.maxDeleteSize = maxDeleteSize;
  }

  public double getDeleteRate() {
    return deleteRate;
  }

  public void setDeleteRate(double deleteRate) {
    this.deleteRate = deleteRate;
  }

  public Duration getMaxPassDuration() {
    return maxPassDuration;
  }

  public void setMaxPassDuration(Duration maxPassDuration) {
    this.maxPassDuration = maxPassDuration;
  }

  public int getMaxConcurrentPartitions() {
    return maxConcurrentPartitions;
  }

  public void setMaxConcurrentPartitions(int maxConcurrentPartitions) {
    this.maxConcurrentPartitions = maxConcurrentPartitions;
  }
}
