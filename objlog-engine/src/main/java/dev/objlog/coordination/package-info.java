/**
 * Coordination through small documents in the bucket: {@link dev.objlog.coordination.CasDocument}
 * (one document changed only by compare-and-swap) and, in {@code json}, the codec they are written
 * with.
 *
 * <p>Public only so that the Spring module shares it; documented as internal: it may change in any
 * release.
 *
 * <p>Owns: the read, decode, change, swap loop and how an ambiguous store reply is settled. Does
 * not own: any document's schema, key or retry budget; each document brings its own.
 *
 * <p>Thread-safety: stated on each type.
 */
@NullMarked
package dev.objlog.coordination;

import org.jspecify.annotations.NullMarked;
