/**
 * Auto-configuration of the log API beans: {@link dev.objlog.spring.core.ObjlogStreams}, a plain
 * {@link dev.objlog.Objlog} when exactly one stream is configured, and {@link
 * dev.objlog.spring.core.ObjlogTemplate} with its value converter and store-activity tracker.
 *
 * <p>Owns: turning {@code objlog.*} properties into engine options (key prefix, the application's
 * MeterRegistry, reader and writer options) and the beans' lifecycles. Does not own: the store
 * (sub-package {@code store}), property checks (the root package), actuator beans.
 *
 * <p>Invariants: every bean backs off when the application defines its own of the same type; the
 * streams bean owns the logs (the plain Objlog bean is never closed on its own); the template is
 * closed (its writers flushed) before the logs.
 *
 * <p>Error contract: bad configuration fails startup through the root package's checks; nothing
 * here does I/O at startup.
 */
@NullMarked
package dev.objlog.spring.autoconfigure.streams;

import org.jspecify.annotations.NullMarked;
