/**
 * Byte-bounded caches for immutable objects: catalog pages, segment indexes and blocks. Internal.
 *
 * <p><b>Owns</b>: one small wrapper over Caffeine ({@link
 * dev.objlog.internal.cache.ByteWeightedCache}) that bounds a cache by the bytes its values
 * hold rather than by entry count, so memory use follows configuration whatever the object sizes.
 *
 * <p><b>Does not own</b>: how much memory the process lends it (the shared pool, {@code
 * internal.memory}), what is cached or how it is validated; callers cache only values that
 * passed their checks and are immutable (keys name immutable objects).
 *
 * <p><b>Invariants</b>: the sum of the weights of the cached values stays at or below the
 * configured maximum once pending evictions ran (eviction runs on the calling thread); a value
 * heavier than the whole budget is not kept. On a memory pool, a value is kept only after its
 * bytes were admitted by the cache's account, and every removal releases them, so the account
 * holds exactly the weights of the kept values; a closed cache keeps nothing.
 *
 * <p><b>Error contract</b>: a loader's exception propagates unchanged to the caller and nothing
 * is cached for that key; the cache itself throws only {@link dev.objlog.InvalidArgumentException}
 * for a negative budget.
 */
@NullMarked
package dev.objlog.internal.cache;

import org.jspecify.annotations.NullMarked;
