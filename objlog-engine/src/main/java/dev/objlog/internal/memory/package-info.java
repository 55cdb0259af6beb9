/**
 * Memory accounting shared by the writers of every log on one {@code dev.objlog.MemoryBudget}.
 * Internal.
 *
 * <p><b>Owns</b>: the pool's capacity, per-account reservations, borrowing beyond them and the
 * wake-ups of waiters. <b>Does not own</b>: what a writer counts as held (its worst-case pending
 * bytes, {@code internal.writer.Batcher}) or what it does when the pool is full (its backpressure
 * policy).
 *
 * <p><b>Invariants</b>: see {@link dev.objlog.internal.memory.MemoryPool}. <b>Error contract</b>:
 * nothing here throws for a full pool; {@code growTo} answers false and the caller decides.
 */
@NullMarked
package dev.objlog.internal.memory;

import org.jspecify.annotations.NullMarked;
