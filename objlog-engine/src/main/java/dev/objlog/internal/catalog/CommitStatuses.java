package dev.objlog.internal.catalog;

import dev.objlog.AppendResult;
import dev.objlog.CommitStatus;
import dev.objlog.CommitUndecidableException;
import dev.objlog.CorruptObjectException;
import dev.objlog.InvalidArgumentException;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.LeafEntry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Decides whether records a writer accepted are in the log (the public entry point is {@code
 * Objlog.commitStatus}).
 *
 * <p>The rule: a record of writer epoch E at LSN L is committed iff the catalog's segment holding
 * L was published under epoch E. It is final only once the head's epoch is above E: a head
 * compare-and-swap of epoch E is conditional on a head of epoch E, so after a takeover none can
 * land any more, however late it reaches the store; before, one still on its way could. Each
 * epoch assigns each LSN once and never mints a second segment for a range it may have
 * committed, so a segment of epoch E holding L holds exactly that record; a segment of a later
 * epoch at L means the new owner reused the LSN and the record did not land.
 *
 * <p>Thread-safety: stateless; safe for concurrent use.
 */
public final class CommitStatuses {
  private CommitStatuses() {}

  /**
   * The status of each of {@code results} (all of {@code catalog}'s partition), in the order
   * given. Results whose future completed normally are committed without any request; the others
   * cost one head read and one catalog lookup per distinct segment (a GET per tree level when its
   * pages are not cached).
   *
   * @throws CommitUndecidableException if a record's epoch still owns the partition, or its range
   *     was trimmed by retention
   * @throws InvalidArgumentException if a result cannot come from this partition's writers (an
   *     epoch the head never reached, or an LSN held by an earlier epoch's segment)
   * @throws CorruptObjectException if the catalog is invalid
   */
  public static CommitStatus[] resolve(PartitionCatalog catalog, int partition, List<AppendResult> results) {
    CommitStatus[] statuses = new CommitStatus[results.size()];
    List<Integer> unknown = new ArrayList<>();
    for (int i = 0; i < results.size(); i++) {
      AppendResult r = results.get(i);
      if (r.writerEpoch() == 0) {
        throw new InvalidArgumentException("an AppendResult with writer epoch 0 was not made by a writer");
      }
      var future = r.committed();
      if (future.isDone() && !future.isCompletedExceptionally()) {
        // The writer completes a record's future only after the head swap holding it landed.
        statuses[i] = CommitStatus.COMMITTED;
      } else {
        unknown.add(i);
      }
    }
    if (unknown.isEmpty()) {
      return statuses;
    }
    unknown.sort(Comparator.comparing(i -> results.get(i).lsn(), Long::compareUnsigned));
    Head head = catalog.refreshHead()
        .orElseThrow(() -> new InvalidArgumentException("partition " + Integer.toUnsignedString(partition)
            + " has no head, so no writer ever accepted these records in this log: are they from another log?"))
        .head();
    for (int i : unknown) {
      AppendResult r = results.get(i);
      int order = Long.compareUnsigned(head.writerEpoch(), r.writerEpoch());
      if (order < 0) {
        throw new InvalidArgumentException("partition " + Integer.toUnsignedString(partition) + " never had writer epoch "
            + Long.toUnsignedString(r.writerEpoch()) + " (its head is at epoch "
            + Long.toUnsignedString(head.writerEpoch()) + "): is " + r + " from another log?");
      }
      if (order == 0) {
        throw new CommitUndecidableException("whether LSN " + Long.toUnsignedString(r.lsn()) + " of partition "
            + Integer.toUnsignedString(partition) + " committed cannot be decided yet: writer epoch "
            + Long.toUnsignedString(r.writerEpoch()) + ", which accepted it, still owns the partition and a head"
            + " write of it may still land. Open a writer of the partition (or wait until another process has),"
            + " then ask again", CommitUndecidableException.Reason.NOT_TAKEN_OVER, partition, r.writerEpoch(), r.lsn());
      }
    }
    LeafEntry segment = null;
    for (int i : unknown) {
      AppendResult r = results.get(i);
      segment = holder(catalog, head, partition, r, segment);
      if (segment == null) {
        statuses[i] = CommitStatus.NOT_COMMITTED;
      } else if (segment.writerEpoch() == r.writerEpoch()) {
        statuses[i] = CommitStatus.COMMITTED;
      } else if (Long.compareUnsigned(segment.writerEpoch(), r.writerEpoch()) > 0) {
        statuses[i] = CommitStatus.NOT_COMMITTED;
      } else {
        throw new InvalidArgumentException("LSN " + Long.toUnsignedString(r.lsn()) + " of partition "
            + Integer.toUnsignedString(partition) + " is in a segment of epoch " + Long.toUnsignedString(segment.writerEpoch())
            + ", older than the writer epoch " + Long.toUnsignedString(r.writerEpoch())
            + " that would have assigned it: is " + r + " from another log?");
      }
    }
    return statuses;
  }

  /**
   * The segment holding the record's LSN under {@code head}, reusing {@code previous} when it
   * holds it too; null when the LSN is at or beyond the head's next LSN.
   */
  private static @Nullable LeafEntry holder(PartitionCatalog catalog, Head head, int partition, AppendResult r,
      @Nullable LeafEntry previous) {
    long lsn = r.lsn();
    if (Long.compareUnsigned(lsn, head.nextLsn()) >= 0) {
      return null;
    }
    if (Long.compareUnsigned(lsn, head.oldestLsn()) < 0) {
      throw new CommitUndecidableException("whether LSN " + Long.toUnsignedString(lsn) + " of partition "
          + Integer.toUnsignedString(partition) + " committed cannot be decided: retention trimmed the catalog below "
          + Long.toUnsignedString(head.oldestLsn()) + ", so it no longer says which writer wrote that LSN",
          CommitUndecidableException.Reason.TRIMMED_BY_RETENTION, partition, r.writerEpoch(), lsn);
    }
    if (previous != null && previous.contains(lsn)) {
      return previous;
    }
    return catalog.findSegment(head, lsn).orElseThrow(() -> new CorruptObjectException("catalog: partition "
        + Integer.toUnsignedString(partition) + " has no segment for LSN " + Long.toUnsignedString(lsn)
        + " inside its head's range"));
  }
}
