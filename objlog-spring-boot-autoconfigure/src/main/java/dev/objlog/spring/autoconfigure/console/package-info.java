/**
 * Auto-configuration of the objlog console ({@code objlog.console.*}): the cached heads it reads
 * in the application context, and the page and its write guard in the management context.
 *
 * <p>Owns: wiring and the on/off conditions only. Does not own: the page or the guard ({@code
 * dev.objlog.spring.actuate.console}), nor the cache ({@link
 * dev.objlog.spring.actuate.CachedPartitionHeads}).
 *
 * <p>Error contract: a refresh interval that is not positive fails startup.
 */
@NullMarked
package dev.objlog.spring.autoconfigure.console;

import org.jspecify.annotations.NullMarked;
