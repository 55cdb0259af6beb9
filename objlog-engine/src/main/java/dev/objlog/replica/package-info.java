/**
 * Replicas without Spring: {@link dev.objlog.replica.Replica} keeps an application's state in
 * step with a log by tailing partitions from saved cursors and handing batches to a {@link
 * dev.objlog.replica.ReplicaApplier}; {@link dev.objlog.replica.CursorStore} keeps the cursors;
 * {@link dev.objlog.replica.SnapshotStore} holds the snapshot payloads that snapshot markers name,
 * and {@link dev.objlog.replica.SnapshotBootstrap} finds the one a consumer starts from.
 *
 * <p><b>Owns</b>: where a replica starts (saved cursor, LSN 0, or the newest snapshot), the order
 * apply-then-save, the order payload-then-marker when publishing a snapshot, pause / resume /
 * stop, and lag.
 *
 * <p><b>Does not own</b>: reading and tailing ({@code dev.objlog.read}), the snapshot marker
 * document ({@link dev.objlog.Objlog#recordSnapshot}), retention (gate it with {@link
 * dev.objlog.Objlog#snapshotGate()}, or publish applied floors to a {@link
 * dev.objlog.replica.ConsumerRegistry} for {@link dev.objlog.lifecycle.UntilConsumedRetention}), the compare-and-swap of small documents ({@code
 * dev.objlog.coordination}), the application's state.
 *
 * <p><b>Invariants</b>: a partition's cursor is saved only after the batch before it was applied,
 * or after the snapshot it points past was restored; a restart resumes exactly at the saved
 * cursor; a snapshot marker only names a payload that was written before it; payloads are never
 * overwritten.
 *
 * <p><b>Error contract</b>: delivery is at-least-once, keyed by (stream id, partition, LSN). An
 * applier exception or a store error stops that partition in {@code FAILED} with its cursor before
 * the batch (retry by starting a new replica); {@link dev.objlog.replica.CursorConflictException}
 * (another runner advanced the cursor), {@link dev.objlog.replica.ReplicaBootstrapException} (no
 * usable snapshot for trimmed records), {@link dev.objlog.replica.SnapshotMissingException} (a
 * marker names a missing payload) and {@link dev.objlog.read.CheckpointMismatchException} are
 * terminal for the partition. An {@link dev.objlog.store.IndeterminateStoreException} from a
 * cursor save means the save may have landed; the next start loads whichever is stored.
 */
@NullMarked
package dev.objlog.replica;

import org.jspecify.annotations.NullMarked;
