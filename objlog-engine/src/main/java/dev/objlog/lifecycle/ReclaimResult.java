package dev.objlog.lifecycle;

import java.util.Objects;

/**
 * What one reclaimer pass did (PROTOCOLS.md §5.8).
 *
 * <p>Thread-safety: immutable.
 *
 * @param operation reclaim or scrub
 * @param partition the stream partition (u32)
 * @param safeFloorLsn the floor below which the pass may delete: the head's retention floor once
 *     it has been stable for the delete delay (u64)
 * @param reclaimedThroughLsn segments below this LSN are deleted (u64)
 * @param scannedObjects objects listed
 * @param candidateObjects objects found deletable (in a dry run: would have been deleted)
 * @param deletedObjects objects deleted
 * @param deletedBytes bytes of the objects deleted
 * @param invalidObjects keys under the partition's folders that do not parse (left alone)
 * @param quarantinedObjects pages this scrub pass put in quarantine
 * @param pendingQuarantine pages in quarantine after the pass
 * @param hasMore a budget ran out before the work was done: run another pass
 * @param dryRun nothing was written or deleted
 */
public record ReclaimResult(
    Operation operation,
    int partition,
    long safeFloorLsn,
    long reclaimedThroughLsn,
    long scannedObjects,
    long candidateObjects,
    long deletedObjects,
    long deletedBytes,
    long invalidObjects,
    long quarantinedObjects,
    long pendingQuarantine,
    boolean hasMore,
    boolean dryRun) {

  public ReclaimResult {
    Objects.requireNonNull(operation, "operation");
  }
}
