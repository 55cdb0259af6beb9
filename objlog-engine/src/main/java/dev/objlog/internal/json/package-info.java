/**
 * A small, strict JSON reader and a compact writer for objlog's JSON objects (retention mailbox,
 * lifecycle state, cursor checkpoints, snapshot markers, leases). Internal.
 *
 * <p>Owns: compact output in a caller-given field order with Go's {@code encoding/json} string
 * escaping (so our bytes match what the Go library writes), and parsing that keeps numbers as
 * text so unsigned 64-bit values above 2^53 survive. Does not own: the schemas; each object type
 * validates its own fields.
 *
 * <p>Error contract: malformed input raises {@link dev.objlog.CorruptObjectException}; never an
 * unchecked JDK exception. Input size and nesting depth are bounded.
 */
@NullMarked
package dev.objlog.internal.json;

import org.jspecify.annotations.NullMarked;
