/**
 * The partition writer: records framed into the batch's open block → blocks sealed in parallel
 * ({@code sealParallelism}) → streamed in block order into the segment's upload (opened at the
 * first sealed block, before the cut) → cut: last block, index, trailer, complete → publish in cut
 * order (PROTOCOLS.md §5.1–5.2). Internal.
 *
 * <p><b>Owns</b>: accepting records (LSN assignment, timestamp order, LSN exhaustion), batching
 * (records, raw bytes, age — fixed or adaptive), backpressure over cut-but-uncommitted segments,
 * segment keys and uuids, block sealing with bounded parallelism ({@code SealPool}), the streaming
 * upload of each segment (create-only; a transient failure aborts it and restarts the whole
 * segment, same key and bytes, from the sealed blocks it retains until the upload completes), the
 * single ordered publisher with group commit, commit futures, the committed-change
 * signal, the local commit bus announcement, and the writer meters.
 *
 * <p><b>Does not own</b>: segment bytes ({@code format.segment}), the catalog commit protocol,
 * fencing and reconciliation ({@code internal.catalog.FencedSession}), store retries per request
 * (store adapters), retention, garbage collection of orphans (scrub).
 *
 * <p><b>Invariants</b>: LSNs are dense and assigned in acceptance order; segments are published
 * strictly in cut order, never skipping one; a segment's key, uuid and bytes never change after
 * its cut, so every retry re-sends the same object and a range is never minted twice; every
 * publish goes through the fenced session, so a superseded writer cannot write behind its
 * successor; at most {@code maxPendingSegments} segments and {@code maxPendingBytes} worst-case
 * bytes (the batch being built included) are pending, and the pipeline's memory (raw blocks
 * waiting for or being sealed, sealed blocks retained for a restart) is within those worst-case
 * bytes; blocks of a segment reach its upload strictly in order; futures of one segment complete together,
 * with the head that committed it.
 *
 * <p><b>Error contract</b>: rejected input ({@link dev.objlog.InvalidArgumentException}, {@link
 * dev.objlog.TimestampOrderException}, {@link dev.objlog.RecordExceedsPendingBudgetException},
 * {@link dev.objlog.WriterBackpressureException}, {@link dev.objlog.LsnSpaceExhaustedException})
 * accepts nothing and leaves the writer usable. Retryable inside the writer: transient upload
 * failures (until {@code segmentFinalize}) and {@link dev.objlog.store.TransientStoreException}
 * from a publish (same group, until {@code catalogPublish}). Terminal: {@link
 * dev.objlog.StaleWriterException}, {@link dev.objlog.CommitIndeterminateException} (maybe
 * committed: the writer stops and never re-mints the range), catalog conflicts, integrity
 * failures, exhausted timeouts, and {@link dev.objlog.WriterAbortedException}; each fails every
 * uncommitted future with the cause.
 */
@NullMarked
package dev.objlog.internal.writer;

import org.jspecify.annotations.NullMarked;
