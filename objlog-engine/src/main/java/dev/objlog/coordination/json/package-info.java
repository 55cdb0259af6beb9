/**
 * The JSON codec of objlog's own small documents in the bucket: cursor checkpoints, the retention
 * mailbox, snapshot markers, the reclaimer's state and lease, listener leases and bucket
 * checkpoints. Built on Jackson's streaming {@code jackson-core}; no data binding.
 *
 * <p>Public only so that the Spring module shares it; it is not a general JSON API and may change in
 * any release. Jackson types never appear in its signatures.
 *
 * <p>Owns: compact output in a caller-given field order with Go's {@code encoding/json} string
 * escaping (so our bytes match what the Go library writes) or the lease documents' plain escaping,
 * and parsing that keeps numbers as text so unsigned 64-bit values above 2^53 survive. Does not own:
 * the schemas; each document type validates its own fields.
 *
 * <p>Error contract: malformed input raises {@link dev.objlog.CorruptObjectException}; never an
 * unchecked JDK or Jackson exception. Input size, nesting depth and number length are bounded.
 *
 * <p>Thread-safety: {@link dev.objlog.coordination.json.JsonReader} and parsed {@link
 * dev.objlog.coordination.json.JsonObject}s are safe to share; a {@link
 * dev.objlog.coordination.json.JsonWriter} belongs to one thread.
 */
@NullMarked
package dev.objlog.coordination.json;

import org.jspecify.annotations.NullMarked;
