package dev.objlog.internal.retention;

import dev.objlog.RetentionResult;
import dev.objlog.SnapshotMarker;
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
 * <p>The request is clamped before it is applied ({@link #clamp}): to the newest snapshot marker's
 * {@code replayFromLsn()} and to the log's retention holds, whoever wrote the mailbox. A clamped
 * request is applied as far as allowed and its policy version is then used up (the head has one
 * version); a request held entirely at or below the applied floor stays pending. A Go writer does
 * no such clamp: this library can only refuse its own applies.
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
    boolean held = false;
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
        long before = clamp(runtime, session, partition, mailbox.beforeLsn());
        if (Long.compareUnsigned(before, head.appliedRetentionLsn()) <= 0
            && Long.compareUnsigned(before, mailbox.beforeLsn()) < 0) {
          // Held at or below what is applied: leave the request pending, a later apply (after
          // the hold moves) takes it as far as it may then.
          outcome = "held";
          return new RetentionResult(false, head.appliedRetentionVersion(),
              head.appliedRetentionLsn(), head.oldestLsn(),
              SegmentRefs.toPartitionHead(session.catalog().keys(), head));
        }
        RetentionApplyResult applied = session.applyRetention(mailbox.policyVersion(), before);
        result = new RetentionResult(applied.applied(), applied.policyVersion(),
            applied.requestedLsn(), applied.oldestLsn(),
            SegmentRefs.toPartitionHead(session.catalog().keys(), applied.head()));
        held = Long.compareUnsigned(before, mailbox.beforeLsn()) < 0;
      }
      outcome = result.applied() ? (held ? "clamped" : "applied") : "noop";
      return result;
    } finally {
      runtime.meters().counter(MetricNames.RETENTION_APPLIES,
          runtime.tags(partition).and(MetricNames.TAG_OUTCOME, outcome)).increment();
    }
  }

  /**
   * {@code requested} lowered to the partition's newest snapshot ({@code replayFromLsn}, when
   * there is a marker) and to the log's retention holds: the writer refuses to trim what a
   * snapshot or a registered consumer still needs, whatever process wrote the request. Never
   * below what the head already applied (a hold cannot undo retention).
   */
  static long clamp(LogRuntime runtime, FencedSession session, int partition, long requested) {
    long before = requested;
    Optional<SnapshotMarker> snapshot =
        SnapshotMarkers.latest(runtime.store(), session.catalog().keys());
    if (snapshot.isPresent()) {
      before = min(before, snapshot.get().replayFromLsn());
    }
    before = min(before, runtime.retentionHolds().retainableBefore(partition));
    long applied = session.head().head().appliedRetentionLsn();
    return Long.compareUnsigned(before, applied) < 0 ? applied : before;
  }

  private static long min(long a, long b) {
    return Long.compareUnsigned(a, b) <= 0 ? a : b;
  }
}
