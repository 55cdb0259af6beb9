package dev.objlog.spring.lifecycle;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The retention policy of one stream ({@code objlog.streams.<name>.retention.*}).
 *
 * <p>Thread-safety: immutable.
 *
 * @param maxAge keep records at least this recent; null for no age limit
 * @param maxRecords keep at most about this many newest records per partition; null for no limit
 * @param consumerGroups groups whose unconsumed records are never trimmed (through a {@link
 *     ConsumerRetentionGate})
 * @param snapshotGate never trim what the partition's newest snapshot marker does not cover
 * @param untilConsumed retention until consumed, or null
 */
public record RetentionPolicy(
    @Nullable Duration maxAge, @Nullable Long maxRecords, List<String> consumerGroups, boolean snapshotGate,
    @Nullable UntilConsumed untilConsumed) {

  /** A policy without until-consumed retention. */
  public RetentionPolicy(@Nullable Duration maxAge, @Nullable Long maxRecords, List<String> consumerGroups,
      boolean snapshotGate) {
    this(maxAge, maxRecords, consumerGroups, snapshotGate, null);
  }

  /**
   * Retention until consumed ({@code objlog.streams.<name>.retention.until-consumed.*}; see {@code
   * dev.objlog.lifecycle.UntilConsumedRetention}).
   *
   * @param keepRecords consumed records to keep below the lowest floor (≥ 0)
   * @param expireAfter stop waiting for a consumer silent this long; null: wait forever
   * @param warnAfter warn about a consumer that has held retention this long
   */
  public record UntilConsumed(long keepRecords, @Nullable Duration expireAfter, Duration warnAfter) {
    public UntilConsumed {
      Objects.requireNonNull(warnAfter, "warnAfter");
      if (keepRecords < 0) {
        throw new IllegalArgumentException("keepRecords must not be negative, was " + keepRecords);
      }
      if (expireAfter != null && (expireAfter.isNegative() || expireAfter.isZero())) {
        throw new IllegalArgumentException("expireAfter must be positive, was " + expireAfter);
      }
      if (warnAfter.isNegative()) {
        throw new IllegalArgumentException("warnAfter must not be negative, was " + warnAfter);
      }
    }
  }

  public RetentionPolicy {
    consumerGroups = List.copyOf(Objects.requireNonNull(consumerGroups, "consumerGroups"));
    if (maxAge != null && (maxAge.isNegative() || maxAge.isZero())) {
      throw new IllegalArgumentException("maxAge must be positive, was " + maxAge);
    }
    if (maxRecords != null && maxRecords < 0) {
      throw new IllegalArgumentException("maxRecords must not be negative, was " + maxRecords);
    }
  }

  /** Whether a limit is set: without one the stream keeps everything. */
  public boolean hasLimit() {
    return maxAge != null || maxRecords != null;
  }
}
