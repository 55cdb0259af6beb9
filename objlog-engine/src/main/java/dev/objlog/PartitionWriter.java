package dev.objlog;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The single writer of one stream partition, obtained with {@link Objlog#openWriter}. Opening
 * fences the partition: any earlier writer's next commit fails with {@link
 * StaleWriterException}, so two writers never both extend the log.
 *
 * <p>Records are accepted at once ({@link #append} assigns the next dense LSN) and batched into a
 * segment that is cut when the first of the batch policy's limits is reached (records, raw bytes,
 * age) or on {@link #cut()}, {@link #flush()} or {@link #close()}. Cut segments are sealed and
 * uploaded in parallel and committed strictly in cut order; segments that are ready together are
 * committed by one catalog head write. The number and size of segments cut but not yet committed
 * is bounded ({@link WriterOptions.BackpressurePolicy}); beyond it, cutting waits.
 *
 * <p>Errors: a rejected record ({@link InvalidArgumentException}, {@link TimestampOrderException},
 * {@link RecordExceedsPendingBudgetException}, {@link WriterBackpressureException}) leaves the
 * writer usable. Terminal failures ({@link StaleWriterException}, {@link
 * CommitIndeterminateException}, store or catalog failures that outlast the configured timeouts)
 * fail every uncommitted record's future with the cause, which {@link #failure()} then reports;
 * every later call fails with {@link WriterClosedException} carrying it.
 *
 * <p>Thread-safety: safe for concurrent use by many threads. Records appended by one thread get
 * increasing LSNs in call order.
 */
public interface PartitionWriter extends AutoCloseable {

  /** The stream partition this writer owns. */
  int partition();

  /**
   * Validates and accepts a record: assigns its LSN and adds it to the batch being built. May
   * block while the pending budget is full (unless the writer fails fast). The record is not
   * durable until {@link AppendResult#committed()} completes.
   *
   * @throws TimestampOrderException if its timestamp is older than the previous record's (also
   *     the last committed one's when the writer opened); the record is not accepted
   * @throws RecordExceedsPendingBudgetException if a segment of this record alone exceeds the
   *     pending budget
   * @throws WriterBackpressureException if the budget is full and the writer fails fast, or the
   *     wait was interrupted
   * @throws LsnSpaceExhaustedException if LSN 2^64−3, the last committable one, was already assigned
   * @throws WriterClosedException after {@link #close()}, {@link #abort()} or a terminal failure
   */
  AppendResult append(LogRecord record);

  /**
   * Cuts the batch being built into a segment now (no-op when it is empty). May block like
   * {@link #append}.
   *
   * @throws WriterClosedException after close, abort or a terminal failure
   */
  void cut();

  /**
   * Cuts the batch being built and waits until everything accepted so far is committed.
   *
   * @return the committed head
   * @throws WriterClosedException after close or abort; with the terminal cause if the writer
   *     failed before everything committed
   * @throws WriterBackpressureException if the calling thread was interrupted while waiting (the
   *     flag is set again)
   */
  PartitionHead flush();

  /**
   * Applies the partition's pending retention request (see {@link Objlog#requestRetention}) through
   * this writer's fence: trims whole segments below the requested LSN with one catalog commit.
   * The request is first lowered to the newest snapshot's {@link SnapshotMarker#replayFromLsn()}
   * and to the log's retention holds ({@link Objlog#holdRetention(int, long)}), whoever wrote it;
   * a request held at the current floor stays pending. (A Go writer does no such clamp.)
   * Finishes an earlier application whose outcome was unknown first. Records stay readable until a
   * reclaimer deletes them after its delete delay.
   *
   * @return what was requested and the floor now in effect; {@code applied=false} when nothing
   *     was pending
   * @throws CommitIndeterminateException if the commit's outcome is unknown; not terminal, the
   *     next call settles it
   * @throws StaleWriterException if another writer took the partition over (terminal)
   * @throws WriterClosedException after close, abort or a terminal failure
   */
  RetentionResult applyRetention();

  /**
   * Cuts the batch being built and returns a future that completes when everything accepted so
   * far is committed (with that head), or fails with the terminal cause. Never blocks: when the
   * pending budget is full, the cut happens as soon as a commit frees room.
   */
  CompletableFuture<PartitionHead> flushAsync();

  /**
   * Flushes, then stops the writer. Idempotent: a second call returns at once. Afterwards
   * {@link #append}, {@link #cut()} and {@link #flush()} throw {@link WriterClosedException}.
   *
   * @throws ObjlogException the terminal cause if the flush could not commit everything
   */
  @Override
  void close();

  /**
   * Stops the writer at once without committing what is pending: futures of uncommitted records
   * fail with {@link WriterAbortedException}, in-progress uploads are cancelled, and segments
   * already uploaded stay unreferenced in the bucket (scrub removes them). A commit already under
   * way completes or fails on its own. Idempotent.
   */
  void abort();

  /** A consistent snapshot: committed head, next LSN, in-flight segments and bytes, failure. */
  WriterState state();

  /**
   * A future that completes with the head of this writer's next commit after this call, or fails
   * when the writer stops (with the terminal cause, or {@link WriterClosedException} after close
   * or abort). Obtain it before reading {@link #state()} to wait for changes without polling:
   * every commit completes the futures handed out before it.
   */
  CompletableFuture<PartitionHead> nextCommit();

  /** The first terminal failure, if the writer failed or was aborted. */
  Optional<ObjlogException> failure();
}
