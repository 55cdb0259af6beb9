/**
 * An in-memory {@link dev.objlog.store.ObjectStore} for tests and simulations.
 *
 * <p>Owns: {@link dev.objlog.store.memory.MemoryObjectStore}, a map from key to immutable
 * versions with atomic create-only and compare-and-swap writes. Does not own: persistence,
 * latency or faults (wrap it in {@link dev.objlog.store.fault.FaultInjectingObjectStore} for those).
 *
 * <p>Invariants: every write installs a fresh version whose token is a store-wide generation that
 * never repeats; stored arrays are private copies, so callers can neither change a stored object
 * nor be changed by one; uploads are buffered privately and become visible only at complete;
 * listing is byte-lexicographic over UTF-8 (Unicode code point order).
 *
 * <p>Error contract: {@link dev.objlog.store.ObjectNotFoundException} for reads of missing keys
 * {@link dev.objlog.store.PermanentStoreException} for an empty key or an upload used after it
 * finished, and {@link dev.objlog.InvalidArgumentException} for a negative range or list limit. It
 * never throws a transient or indeterminate error.
 */
@NullMarked
package dev.objlog.store.memory;

import org.jspecify.annotations.NullMarked;
