/**
 * Garbage collection of a stream's bucket objects: the {@link dev.objlog.lifecycle.Reclaimer}
 * (ordered reclaim below the retention floor, scrub of orphans and unreachable pages), the {@link
 * dev.objlog.lifecycle.Scheduler} that drives it over many partitions, delete rate limiting, and
 * the retention policy {@link dev.objlog.lifecycle.UntilConsumedRetention}, which requests
 * retention up to the lowest applied floor of the registered consumers ({@link
 * dev.objlog.lifecycle.ConsumerFloors}). Public API. Nothing here runs unless the application calls it.
 *
 * <p><b>Owns</b>: {@code maintenance/gc/state.json} per partition (PROTOCOLS.md §5.8: progress
 * checkpoints, the safe floor, the page quarantine, and the lease); deciding what may be deleted;
 * deleting it within budgets (objects listed, deletes, bytes, time) at a bounded rate.
 *
 * <p><b>Does not own</b>: retention itself (requests and the trim belong to {@code Objlog} and the
 * partition's writer, which clamps to the log's holds; the until-consumed policy only requests; a
 * reclaimer never changes a head), partition discovery and recurrence (the
 * caller's), provider-side batching and retries (the store adapters').
 *
 * <p><b>Invariants</b>: only objects the catalog head no longer references are deleted: segments
 * and pages below the <i>safe floor</i>, which is a head retention floor that has been observed
 * for at least the delete delay; orphan segments that no head references and that are older than
 * the delay; pages that were unreachable when quarantined and still are after the delay, and whose
 * generation is below the head's. Before every ordered delete wave the head is read again and its
 * floor must not be below the safe floor. Every delete wave is preceded by a lease renewal (a
 * compare-and-swap of the state), so a reclaimer that lost its lease deletes nothing more. Progress
 * is checkpointed after every wave, so a killed pass resumes where it stopped.
 *
 * <p><b>Error contract</b>: {@link dev.objlog.lifecycle.LeaseHeldException} — retry later;
 * {@link dev.objlog.lifecycle.LeaseLostException} — the pass stopped safely, retry later; store
 * exceptions — the pass stopped after its last checkpoint, retry (deletes are idempotent); {@link
 * dev.objlog.CorruptObjectException} — the state or catalog is not valid, or the head's floor moved
 * below the safe floor: terminal for the partition until an operator looks.
 */
@NullMarked
package dev.objlog.lifecycle;

import org.jspecify.annotations.NullMarked;
