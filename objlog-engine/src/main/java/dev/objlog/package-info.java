/**
 * The public objlog API: one {@code Objlog} is one stream in one object store.
 *
 * <p>Owns the exception hierarchy: every failure is an unchecked {@link dev.objlog.ObjlogException};
 * subclasses say what went wrong and whether a retry can help.
 */
@NullMarked
package dev.objlog;

import org.jspecify.annotations.NullMarked;
