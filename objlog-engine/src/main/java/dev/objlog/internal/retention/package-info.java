/**
 * Retention requests, their application by the partition's writer, and snapshot markers.
 * Internal.
 *
 * <p><b>Owns</b>: the retention mailbox {@code maintenance/retention.json} (FORMAT.md §2.13:
 * compact JSON in the Go field order, written create-or-compare-and-swap with up to 3 attempts,
 * monotonic in policy version and LSN), the gate clamp applied when a request is made, the
 * snapshot marker {@code maintenance/snapshot.json} (our extension, monotonic in {@code
 * through_lsn}), and {@link dev.objlog.internal.retention.RetentionApplier}, the one call a writer
 * makes to apply what the mailbox asks for through its fenced session.
 *
 * <p><b>Does not own</b>: the trim itself (internal.catalog, FORMAT.md §2.10), deleting anything
 * (lifecycle), the snapshot's content (the application's).
 *
 * <p><b>Invariants</b>: a request never changes visibility; the mailbox and the snapshot marker
 * never move backwards; a gated request never asks for more than the gate allows; the applier only
 * ever applies the mailbox's request or less (clamped to the newest snapshot and the log's
 * {@link dev.objlog.internal.retention.RetentionHolds}), and only through the writer's fence.
 *
 * <p><b>Error contract</b>: {@link dev.objlog.RetentionRegressionException} and {@link
 * dev.objlog.SnapshotRegressionException} (nothing written); {@link
 * dev.objlog.InvalidArgumentException} (bad input); {@link dev.objlog.CorruptObjectException} (a
 * mailbox or marker that is not ours or not valid); {@link
 * dev.objlog.store.TransientStoreException} after the attempts run out (nothing or an identical
 * object was written; call again). The applier passes on the fenced session's errors.
 */
@NullMarked
package dev.objlog.internal.retention;

import org.jspecify.annotations.NullMarked;
