/**
 * objlog's byte formats: pure functions from bytes to values and back, no I/O.
 *
 * <p>Owns segformat v2 ({@code format.segment}), catformat v1 ({@code format.catalog}) and key
 * layout v1 ({@code format.key}), plus what they share (hash algorithms). Does not own where bytes
 * come from or go to: callers hand in buffers or ranged-read callbacks.
 *
 * <p>Error contract: every failure is an {@link dev.objlog.ObjlogException}: {@link
 * dev.objlog.CorruptObjectException} (and its {@link dev.objlog.IntegrityException} and {@link
 * dev.objlog.UnsupportedVersionException} subclasses) for bad bytes, {@link
 * dev.objlog.InvalidArgumentException} for bad values handed to an encoder. No decoder lets a
 * runtime exception from the JDK escape, and none allocates beyond counts it has validated.
 */
@NullMarked
package dev.objlog.format;

import org.jspecify.annotations.NullMarked;
