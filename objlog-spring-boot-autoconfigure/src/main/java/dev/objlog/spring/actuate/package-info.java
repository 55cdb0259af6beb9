/**
 * Actuator support: the {@code objlog} endpoint ({@link dev.objlog.spring.actuate.ObjlogEndpoint}),
 * the health indicator ({@link dev.objlog.spring.actuate.ObjlogHealthIndicator}) and the cheap
 * periodic store probe that keeps health's view of the store current ({@link
 * dev.objlog.spring.actuate.StoreProbe}), and the cache of partition heads the console reads
 * ({@link dev.objlog.spring.actuate.CachedPartitionHeads}: at most one head read per partition per
 * refresh interval, however many callers).
 *
 * <p>Owns: the JSON shape of the endpoint and the health rules. Does not own: the state it reports
 * (kept by {@code dev.objlog.spring.core}) or any write operation (retention requests and reclaim
 * arrive with the lifecycle work).
 *
 * <p>Invariants: health never makes a store request (it reads {@link
 * dev.objlog.spring.core.StoreActivity} and the template's writer states); the endpoint names
 * streams by their configured name and prints unsigned 64-bit values as non-negative numbers; it
 * never shows credentials.
 *
 * <p>Error contract: the endpoint reports a partition whose head cannot be read with an {@code
 * error} field instead of failing the whole response; an unknown stream or partition is a 404.
 */
@NullMarked
package dev.objlog.spring.actuate;

import org.jspecify.annotations.NullMarked;
