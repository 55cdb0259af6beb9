package dev.objlog;

import java.util.Objects;

/**
 * Outcome of a writer applying the partition's pending retention request (PROTOCOLS.md §5.7).
 * Retention works at whole-segment granularity: {@link #oldestLsn()} is the base LSN of the
 * segment containing {@link #requestedLsn()}, so it may stay below it.
 *
 * <p>Thread-safety: immutable.
 *
 * @param applied whether this call changed the head (false: nothing was pending)
 * @param policyVersion the policy version the head records as applied (u64; 0 if none ever was)
 * @param requestedLsn the applied retention LSN as the head records it: the request clamped to
 *     the partition's next LSN (u64)
 * @param oldestLsn the effective retention floor now: reads below it fail with {@link
 *     LsnExpiredException} (u64)
 * @param head the partition's head after the call
 */
public record RetentionResult(
    boolean applied, long policyVersion, long requestedLsn, long oldestLsn, PartitionHead head) {
  public RetentionResult {
    Objects.requireNonNull(head, "head");
  }
}
