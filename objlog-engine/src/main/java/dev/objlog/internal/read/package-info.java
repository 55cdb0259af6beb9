/**
 * The reader runtime behind {@code dev.objlog.read}. Internal.
 *
 * <p><b>Owns</b>: per-partition head trackers (the head a reader last saw, single-flight
 * refreshes through the catalog's conditional GET, a change counter tailers wait on), the read
 * walk (catalog listing → segment open → blocks, bounded by limit and the head's next LSN), the
 * anomaly rule (a missing page or segment: one head refresh and retry, or {@link
 * dev.objlog.LsnExpiredException} below the new floor), the caches of opened segments and decoded
 * blocks (on the log's memory pool), the reader's bounded zstd contexts, read-ahead replay on the runtime's executor (a {@code Replay},
 * also behind a tailer that has a backlog), cursors, and the watch poller with local commit
 * wake-ups.
 *
 * <p><b>Does not own</b>: catalog lookups and page validation (internal.catalog), segment bytes
 * and their checks (format.segment), store retries, the public contract (dev.objlog.read).
 *
 * <p><b>Invariants</b>: every segment is opened against its catalog leaf entry (key derived from
 * the entry, trailer checked against every field) before a record is used; records are returned
 * contiguous and strictly below the head's next LSN; a tracker's head never moves backwards (by
 * generation); at most one refresh per partition and reader is in flight; a replay (and a tailer reading ahead)
 * holds at most read-ahead + 1 decoded blocks; the poller never blocks a scheduler thread waiting on another.
 *
 * <p><b>Error contract</b>: as {@link dev.objlog.read.PartitionReader}: expired and checkpoint
 * errors are terminal for the position, corrupt objects terminal for the object, store transients
 * retryable; nothing here writes.
 */
@NullMarked
package dev.objlog.internal.read;

import org.jspecify.annotations.NullMarked;
