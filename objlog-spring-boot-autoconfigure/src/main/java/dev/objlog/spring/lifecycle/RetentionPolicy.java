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
 */
public record RetentionPolicy(
    @Nullable Duration maxAge, @Nullable Long maxRecords, List<String> consumerGroups, boolean snapshotGate) {

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
