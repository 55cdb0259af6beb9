/**
 * The partition writer: records framed into the batch's open block → blocks sealed in parallel
 * ({@code sealParallelism}) → streamed in block order into the segment's upload (opened at the
 * first sealed block, before the cut) → cut: last block, index, trailer, complete → publish in cut
 * order (PROTOCOLS.md §5.1–5.2). Internal.
 *
 * <p><b>Parts</b>: {@code WriterEngine} is the front ({@code PartitionWriter}) and owns the
 * writer's terminal failure, flush, close and retention. {@code Batcher} accepts records, cuts and
 * applies backpressure; {@code SegmentPipeline} seals, streams and restarts uploads; {@code
 * Publisher} commits groups in cut order. {@code RetryBudget} holds the retry rules they share.
 *
 * <p><b>Owns</b>: accepting records (LSN assignment, timestamp order, LSN exhaustion), batching
 * (records, raw bytes, age — fixed or adaptive), backpressure over cut-but-uncommitted segments,
 * segment keys and uuids, block sealing with bounded parallelism ({@code SealPool}) and the
 * sealers and spare block buffers a log's writers share ({@link
 * dev.objlog.internal.writer.SealResources}, bounded whatever the writer count), the streaming
 * upload of each segment (create-only; a transient failure aborts it and restarts the whole
 * segment, same key and bytes, from the sealed blocks it retains until the upload completes), the
 * single ordered publisher with group commit, the writer's deadlines, commit futures, the
 * committed-change signal, the local commit bus announcement, and the writer meters.
 *
 * <p><b>Does not own</b>: segment bytes ({@code format.segment}), the catalog commit protocol,
 * fencing and the reconciliation of one head swap ({@code internal.catalog.FencedSession}), store
 * retries per request (store adapters), retention, garbage collection of orphans (scrub).
 *
 * <p><b>Stage model</b> of a segment ({@code Segment.Stage}; the stage is changed under the writer
 * lock):
 * <pre>
 *   building --cut--&gt; SEALING --last block written--&gt; UPLOADING --create-only complete--&gt; READY
 *                        ^                                 |                                  |
 *                        +--- transient failure: abort, ---+               first in cut order, |
 *                             back off, restart (same key)                 publisher free      v
 *                                                    COMMITTED &lt;--head swapped-- PUBLISHING --+
 *                                                                                |   ^
 *                                                         not committed: back off +---+
 *
 *   building, SEALING, UPLOADING, READY --terminal writer failure--&gt; ABANDONED
 *   PUBLISHING --terminal publish failure, deadline, or a failed writer at a retry--&gt; ABANDONED
 * </pre>
 * <ul>
 *   <li><b>building</b> (not yet a stage): the batcher's active batch; full blocks already go to
 *       the pipeline. Cut by records, raw bytes or age, by {@code cut()}, {@code flush()} or
 *       {@code close()}; a cut waits (or is remembered) while {@code maxPendingSegments} are cut.
 *   <li><b>SEALING</b>: cut and queued; blocks are being sealed and streamed into the upload (a
 *       transient failure here or while completing restarts the whole upload from this stage,
 *       until {@code segmentFinalize} after the cut).
 *   <li><b>UPLOADING</b>: every block written; the index and trailer are written and the
 *       create-only upload is completing (a key holding other bytes is an integrity failure).
 *   <li><b>READY</b>: the object is in the bucket; waiting until every segment cut before it is
 *       committed and the publisher is free.
 *   <li><b>PUBLISHING</b>: in the group of one head swap with every other ready segment at the
 *       front of the queue. Only the publisher ends this stage: a terminal failure of the writer
 *       elsewhere leaves the group to it (a head swap under way may still commit the group; a
 *       group waiting to be retried fails with the writer's cause).
 *   <li><b>COMMITTED</b>: in the catalog; its appenders' futures, then the settle future that
 *       flush and close wait on, complete with the committing head. Off the queue.
 *   <li><b>ABANDONED</b>: dropped by a terminal failure (of any stage but PUBLISHING) or by a
 *       failed publish; the upload is aborted, its blocks released, its futures fail with the
 *       writer's cause. An uploaded but uncommitted object is scrub's to collect.
 * </ul>
 *
 * <p><b>Retries</b>: one owner per decision, each with its budget written down. A store request is
 * retried by the store adapter ({@code RetryPolicy}). An upload that still fails transiently is
 * restarted by the pipeline after {@code RetryBudget.backoffMillis} until {@code
 * timeouts.segmentFinalize} has passed since the cut. A group commit is tried once at a time
 * ({@code FencedSession.publishOnce}: each page write and the head swap sent once, an unclear swap
 * reconciled by reading the head back once), which answers committed, definitely not committed
 * ({@code TransientStoreException}), or terminal; on "not committed" the publisher retries the same
 * group after a backoff until {@code timeouts.catalogPublish} has passed since it took the group.
 * Both deadlines are elapsed time on the log's {@code Ticker}, checked after each try; passing one
 * ends the writer with {@link dev.objlog.WriterDeadlineExceededException}. So a writer gives up at
 * most one try (one request under the adapter's {@code RetryPolicy}, plus one head read-back)
 * after its deadline.
 *
 * <p><b>Invariants</b>: LSNs are dense and assigned in acceptance order; segments are published
 * strictly in cut order, never skipping one; a segment's key, uuid and bytes never change after
 * its cut, so every retry re-sends the same object and a range is never minted twice; every
 * publish goes through the fenced session, so a superseded writer cannot write behind its
 * successor; at most {@code maxPendingSegments} segments and {@code maxPendingBytes} worst-case
 * bytes (the batch being built included) are pending, and those worst-case bytes are held in the
 * writer's account of the log's {@code MemoryPool} (reservation first, then borrowed; returned as
 * segments commit or fail, the reservation when the writer is closed or failed and nothing of it is
 * pending), and the pipeline's memory (raw blocks
 * waiting for or being sealed, sealed blocks retained for a restart) is within those worst-case
 * bytes; blocks of a segment reach its upload strictly in order; futures of one segment complete together,
 * with the head that committed it.
 *
 * <p><b>Error contract</b>: rejected input ({@link dev.objlog.InvalidArgumentException}, {@link
 * dev.objlog.TimestampOrderException}, {@link dev.objlog.RecordExceedsPendingBudgetException},
 * {@link dev.objlog.WriterBackpressureException}, {@link dev.objlog.LsnSpaceExhaustedException})
 * accepts nothing and leaves the writer usable; a full memory budget is backpressure like a full
 * writer (wait, or {@code WriterBackpressureException} with {@code failWhenFull}), and a record
 * larger than the writer can ever hold of it is {@code RecordExceedsPendingBudgetException}. Retryable inside the writer: transient upload
 * failures (until {@code segmentFinalize}) and {@link dev.objlog.store.TransientStoreException}
 * from a publish (same group, until {@code catalogPublish}). Terminal: {@link
 * dev.objlog.StaleWriterException}, {@link dev.objlog.CommitIndeterminateException} (maybe
 * committed: the writer stops and never re-mints the range), {@link
 * dev.objlog.WriterDeadlineExceededException} (not committed), catalog conflicts, integrity
 * failures, and {@link dev.objlog.WriterAbortedException}; each fails every uncommitted future
 * with the cause.
 */
@NullMarked
package dev.objlog.internal.writer;

import org.jspecify.annotations.NullMarked;
