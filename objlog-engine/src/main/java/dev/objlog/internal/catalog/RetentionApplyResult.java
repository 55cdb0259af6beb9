package dev.objlog.internal.catalog;

import dev.objlog.format.catalog.Head;
import java.util.Objects;

/**
 * Outcome of {@link FencedSession#applyRetention}.
 *
 * <p>Thread-safety: immutable.
 *
 * @param applied whether this call committed the request (false: it was already applied)
 * @param policyVersion the policy version the head now records as applied (u64)
 * @param requestedLsn the applied retention LSN as the head records it: the request clamped to
 *     next_lsn (u64)
 * @param oldestLsn the retention floor after the call; whole-segment granularity may keep it below
 *     {@code requestedLsn} (u64)
 * @param head the head after the call
 * @param reconciled true if the commit was recognised by reading the head back
 */
public record RetentionApplyResult(
    boolean applied, long policyVersion, long requestedLsn, long oldestLsn, Head head,
    boolean reconciled) {
  public RetentionApplyResult {
    Objects.requireNonNull(head, "head");
  }
}
