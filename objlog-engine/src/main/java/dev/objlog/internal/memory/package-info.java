/**
 * Memory accounting shared by the writers and caches of every log on one {@code
 * dev.objlog.MemoryBudget}. Internal.
 *
 * <p><b>Owns</b>: the pool's capacity, per-account reservations, borrowing beyond them, the
 * wake-ups of waiters, cache accounts (admission, release, by part) and asking caches to evict
 * when a writer needs their bytes; the count of readers' and writers' native zstd contexts. <b>Does not
 * own</b>: what a writer counts as held (its worst-case pending bytes, {@code
 * internal.writer.Batcher}), what it does when the pool is full (its backpressure policy), or
 * which entries a cache evicts ({@code internal.cache.ByteWeightedCache}).
 *
 * <p><b>Invariants</b>: see {@link dev.objlog.internal.memory.MemoryPool}. <b>Error contract</b>:
 * nothing here throws for a full pool; {@code growTo} and {@code admit} answer false and the
 * caller decides (a writer waits or fails, a cache does not keep the entry).
 */
@NullMarked
package dev.objlog.internal.memory;

import org.jspecify.annotations.NullMarked;
