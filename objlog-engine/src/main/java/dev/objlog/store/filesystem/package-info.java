/**
 * The filesystem {@link dev.objlog.store.ObjectStore}: a local directory is a bucket. objlog's
 * embedded default, safe for several processes on one machine.
 *
 * <p>Owns: {@link dev.objlog.store.filesystem.FilesystemObjectStore} and its builder; the mapping
 * of key {@code K} to the file {@code <root>/K}; everything under {@code <root>/.objlog/} (striped
 * lock files, the generation counter, per-object sidecars holding tokens, temporary files and
 * upload staging). Does not own: anything outside the root (it never writes there and never follows
 * a symbolic link under it), nor the meaning of the bytes.
 *
 * <p>Invariants: a visible object is always a complete file written by one write (temporary file,
 * sync, atomic rename, directory sync), never a torn one; every folder the store creates is made
 * durable by syncing its parent, and a write is reported only after the folder holding the object
 * was synced (a retry that finds its own earlier, unsynced try in place syncs the folder first), so
 * what was acknowledged survives a power failure; create-only and compare-and-swap on one
 * key are serialised by a JVM lock plus a file lock, so they are atomic across threads and
 * processes; a token is a generation that never repeats on one root and always belongs to the
 * bytes that are visible (a stale sidecar is repaired with a fresh generation under the key's
 * lock); temporary files end in {@code .tmp}, live under {@code .objlog/} and are never listed or
 * readable; an object and a folder never share a path; deleting an object removes the folders it
 * leaves empty (never the root).
 *
 * <p>Error contract: malformed keys (absolute, empty or {@code .}/{@code ..} segments, backslash,
 * NUL, a segment ending in {@code .tmp}, under {@code .objlog/}), object/folder clashes, symbolic
 * links and permission problems are {@link dev.objlog.store.PermanentStoreException} with a message
 * naming the rule; negative ranges and list limits are {@link dev.objlog.InvalidArgumentException};
 * other I/O errors (a full disk among them, with a message saying so; a failed directory sync) are
 * retried and then surface as {@link dev.objlog.store.TransientStoreException},
 * or as {@link dev.objlog.store.IndeterminateStoreException} when a write had already been renamed
 * into place. Failed conditions are results, not errors.
 */
@NullMarked
package dev.objlog.store.filesystem;

import org.jspecify.annotations.NullMarked;
