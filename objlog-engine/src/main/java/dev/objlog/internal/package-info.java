/**
 * The engine's implementation. Internal: used only inside objlog-engine, and may change at any
 * time without notice. Nothing outside the engine may import it (an ArchUnit test keeps it so).
 */
@NullMarked
package dev.objlog.internal;

import org.jspecify.annotations.NullMarked;
