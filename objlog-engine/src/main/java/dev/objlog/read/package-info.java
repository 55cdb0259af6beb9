/**
 * The public reader API: {@link dev.objlog.read.LogReader} (one per log, or several with their own
 * {@link dev.objlog.read.ReaderOptions}), {@link dev.objlog.read.PartitionReader} (reads by LSN,
 * by timestamp, exact fetch, read-ahead replay), {@link dev.objlog.read.Cursor} with its
 * language-neutral {@link dev.objlog.read.CursorCheckpoint}, and {@link dev.objlog.read.Watch} /
 * {@link dev.objlog.read.Tailer} for following partitions as writers commit.
 *
 * <p><b>Owns</b>: freshness semantics (PROTOCOLS.md §5.4: which head a read uses and when it is
 * refreshed), the cursor and checkpoint contract (§5.5, with its check order), tailing semantics
 * (§5.6), and the shape of what readers return.
 *
 * <p><b>Does not own</b>: bytes (format), the catalog walk (internal.catalog), transport and
 * retries (store adapters), writing, retention and reclamation. The implementation lives in
 * {@code dev.objlog.internal.read}.
 *
 * <p><b>Invariants</b>: a read returns contiguous records in {@code [start, head.next)} of one
 * head, never a record the catalog did not commit; every segment is checked against the catalog's
 * leaf entry before any of its records is returned; a cursor or tailer advances only past records
 * it returned; LSNs are unsigned 64-bit values everywhere; concurrent refreshes of one partition's
 * head share one request; an unchanged head costs a conditional GET that transfers no body.
 *
 * <p><b>Error contract</b>: {@link dev.objlog.LsnExpiredException} (below the retention floor;
 * restart from its {@code oldestLsn}) and {@link dev.objlog.read.CheckpointInvalidException},
 * {@link dev.objlog.read.CheckpointMismatchException}, {@link
 * dev.objlog.read.CheckpointAheadException} are terminal for that position or checkpoint. {@link
 * dev.objlog.CorruptObjectException} / {@link dev.objlog.IntegrityException} are terminal for the
 * object. {@link dev.objlog.store.TransientStoreException} is retryable: nothing moved. {@link
 * dev.objlog.read.ReaderClosedException}, {@link dev.objlog.read.WatchClosedException} and {@link
 * dev.objlog.read.PartitionNotWatchedException} report a closed or removed resource. Reads never
 * write, so no reader error is ever "maybe committed".
 */
@NullMarked
package dev.objlog.read;

import org.jspecify.annotations.NullMarked;
