/**
 * Auto-configuration of objlog's actuator beans: the {@code objlog} endpoint, the health
 * indicator and its store probe.
 *
 * <p>Owns: when those beans exist (actuator on the classpath, endpoint available, health indicator
 * enabled). Does not own: what they report ({@code dev.objlog.spring.actuate}).
 *
 * <p>Invariants: nothing here is created without the streams bean; every bean backs off when the
 * application defines its own.
 *
 * <p>Error contract: none at runtime; configuration errors fail startup through the root package.
 */
@NullMarked
package dev.objlog.spring.autoconfigure.actuate;

import org.jspecify.annotations.NullMarked;
