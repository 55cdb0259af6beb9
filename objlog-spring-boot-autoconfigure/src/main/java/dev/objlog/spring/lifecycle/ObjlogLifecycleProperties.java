package dev.objlog.spring.lifecycle;

import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import java.time.Duration;
import org.springframework.beans.factory.InitializingBean;
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
public class ObjlogLifecycleProperties implements InitializingBean {

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

  /**
   * Checks the values at startup.
   *
   * @throws ObjlogConfigurationException naming the first property to change
   */
  @Override
  public void afterPropertiesSet() {
    positive("interval", interval, "such as 1m");
    if (deleteDelay.isNegative()) {
      throw new ObjlogConfigurationException("objlog.lifecycle.delete-delay", "the delete delay " + deleteDelay
          + " is negative.", "Set objlog.lifecycle.delete-delay to 0 or more; 24h (the default) gives readers a day.");
    }
    positive("scrub-interval", scrubInterval, "such as 1h");
    positive("max-pass-duration", maxPassDuration, "such as 20s");
    atLeastOne("max-objects-per-run", maxObjectsPerRun);
    atLeastOne("max-deletes-per-run", maxDeletesPerRun);
    atLeastOne("max-concurrent-partitions", maxConcurrentPartitions);
    if (maxDeleteSize.toBytes() < 1) {
      throw new ObjlogConfigurationException("objlog.lifecycle.max-delete-size", "the size " + maxDeleteSize
          + " is not positive.", "Set objlog.lifecycle.max-delete-size to a positive size such as 1GB.");
    }
    if (!(deleteRate >= 0) || Double.isInfinite(deleteRate)) {
      throw new ObjlogConfigurationException("objlog.lifecycle.delete-rate", "the delete rate " + deleteRate
          + " is not a finite number of 0 or more.", "Set objlog.lifecycle.delete-rate to deletes per second, or 0 for no limit.");
    }
  }

  private static void positive(String name, Duration value, String example) {
    if (value.isNegative() || value.isZero()) {
      throw new ObjlogConfigurationException("objlog.lifecycle." + name, "the duration " + value + " is not positive.",
          "Set objlog.lifecycle." + name + " to a positive duration " + example + ".");
    }
  }

  private static void atLeastOne(String name, int value) {
    if (value < 1) {
      throw new ObjlogConfigurationException("objlog.lifecycle." + name, "the value " + value + " is below 1.",
          "Set objlog.lifecycle." + name + " to 1 or more.");
    }
  }

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
