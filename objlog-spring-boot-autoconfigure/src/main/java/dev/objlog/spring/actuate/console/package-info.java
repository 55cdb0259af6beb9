/**
 * The objlog console: a read-only web page (static HTML, CSS and JavaScript in the starter's jar,
 * under {@code dev/objlog/spring/actuate/console/}) served under the {@code objlog} endpoint's
 * path ({@code /actuator/objlog/console}), and the guard that keeps other sites from making a
 * browser call the endpoint's write operations.
 *
 * <p>Owns: the page's files and how they are served. Does not own: the data, which the page reads
 * from the endpoint's JSON only ({@code GET /actuator/objlog?heads=cached} and {@code
 * .../{stream}/{partition}/segments}), nor the write operations, which stay the endpoint's.
 *
 * <p>Invariants: the page loads nothing from another origin (its Content-Security-Policy says so);
 * it shows write actions only when the endpoint reports {@code writeOperations: true}; every write
 * it sends carries {@link dev.objlog.spring.actuate.console.ConsoleWriteGuard#HEADER} and a JSON
 * body.
 *
 * <p>Error contract: a refused browser write answers 403 with the reason as JSON.
 */
@NullMarked
package dev.objlog.spring.actuate.console;

import org.jspecify.annotations.NullMarked;
