/**
 * objlog's Micrometer meters: every meter name in one place ({@link
 * dev.objlog.internal.metrics.MetricNames}), documented in {@code docs/METRICS.md}. Internal.
 *
 * <p>Owns: names, tags and registration. Does not own: what is measured; the writer, reader and
 * lifecycle code record into the meters they are handed. Meters never throw; a registry that
 * rejects a meter is the application's configuration error and surfaces at open time.
 */
@NullMarked
package dev.objlog.internal.metrics;

import org.jspecify.annotations.NullMarked;
