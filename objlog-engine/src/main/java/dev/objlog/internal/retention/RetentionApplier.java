package dev.objlog.internal.retention;

import dev.objlog.RetentionResult;
import dev.objlog.format.catalog.Head;
import dev.objlog.internal.LogRuntime;
import dev.objlog.internal.catalog.FencedSession;
import dev.objlog.internal.catalog.RetentionApplyResult;
import dev.objlog.internal.catalog.SegmentRefs;
import dev.objlog.internal.metrics.MetricNames;
import java.util.Optional;

/**
 * What {@code PartitionWriter.applyRetention()} does (PROTOCOLS.md §5.7): read the partition's
 * retention mailbox and, if it asks for more than the head has applied, apply it through the
 * writer's fenced session. A retention an earlier call left with an unknown outcome is settled
 * first by the session itself.
 *
 * <p>Thread-safety: stateless; the session serialises its own commits.
 */
public final class RetentionApplier {
  private RetentionApplier() {}

  /**
   * Applies the pending retention request of the session's partition, if any.
   *
   * @return {@code applied=false} with the current head when nothing is pending
   * @throws dev.objlog.CorruptObjectException if the mailbox is not valid for this partition
   * @throws dev.objlog.RetentionRegressionException if the mailbox asks for less than the head
   *     applied at a higher version (a mailbox reset by hand)
   * @throws dev.objlog.CommitIndeterminateException if the head swap's outcome is unknown; the
   *     next call settles it
   * @throws dev.objlog.StaleWriterException if the writer's fence moved (terminal for the writer)
   * @throws dev.objlog.store.TransientStoreException if the store failed; nothing was applied
   */
  public static RetentionResult apply(LogRuntime runtime, FencedSession session) {
    int partition = session.catalog().identity().partition();
    String outcome = "failed";
    try {
      Optional<RetentionMailbox.Stored> stored =
          RetentionMailbox.read(runtime.store(), session.catalog().keys());
      Head head = session.head().head();
      RetentionResult result;
      if (stored.isEmpty()
          || Long.compareUnsigned(stored.get().mailbox().policyVersion(),
              head.appliedRetentionVersion()) <= 0) {
        result = new RetentionResult(false, head.appliedRetentionVersion(),
            head.appliedRetentionLsn(), head.oldestLsn(),
            SegmentRefs.toPartitionHead(session.catalog().keys(), head));
      } else {
        RetentionMailbox mailbox = stored.get().mailbox();
        RetentionApplyResult applied =
            session.applyRetention(mailbox.policyVersion(), mailbox.beforeLsn());
        result = new RetentionResult(applied.applied(), applied.policyVersion(),
            applied.requestedLsn(), applied.oldestLsn(),
            SegmentRefs.toPartitionHead(session.catalog().keys(), applied.head()));
      }
      outcome = result.applied() ? "applied" : "noop";
      return result;
    } finally {
      runtime.meters().counter(MetricNames.RETENTION_APPLIES,
          runtime.tags(partition).and(MetricNames.TAG_OUTCOME, outcome)).increment();
    }
  }
}
