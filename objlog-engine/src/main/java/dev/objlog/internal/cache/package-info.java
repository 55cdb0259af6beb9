/**
 * Byte-bounded caches for immutable objects: catalog pages, segment indexes and blocks. Internal.
 *
 * <p><b>Owns</b>: one small wrapper over Caffeine ({@link
 * dev.objlog.internal.cache.ByteWeightedCache}) that bounds a cache by the bytes its values
 * hold rather than by entry count, so memory use follows configuration whatever the object sizes.
 *
 * <p><b>Does not own</b>: what is cached or how it is validated; callers cache only values that
 * passed their checks and are immutable (keys name immutable objects).
 *
 * <p><b>Invariants</b>: the sum of the weights of the cached values stays at or below the
 * configured maximum once pending evictions ran (eviction runs on the calling thread); a value
 * heavier than the whole budget is not kept.
 *
 * <p><b>Error contract</b>: a loader's exception propagates unchanged to the caller and nothing
 * is cached for that key; the cache itself throws only {@link dev.objlog.InvalidArgumentException}
 * for a negative budget.
 */
@NullMarked
package dev.objlog.internal.cache;

import org.jspecify.annotations.NullMarked;
