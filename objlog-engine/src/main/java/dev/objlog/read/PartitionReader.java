package dev.objlog.read;

import dev.objlog.PartitionHead;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Reads one partition: batches by LSN or timestamp, single records, read-ahead replays, and
 * cursors (PROTOCOLS.md §5.4, §5.5). LSNs are unsigned 64-bit values.
 *
 * <p>Every read works against one catalog head chosen by its {@link Freshness}, and returns
 * records in {@code [oldest, next)} of that head only. Errors: {@link
 * dev.objlog.LsnExpiredException} when the start is below the head's retention floor (also when
 * retention trimmed it during the read: a missing catalog page or segment triggers one head
 * refresh and retry, and if the start fell below the new floor the read fails this way); a start
 * at or after the head's next LSN returns an empty batch. {@link dev.objlog.CorruptObjectException}
 * (and its {@link dev.objlog.IntegrityException} subclass) when an object breaks the format or
 * does not match the catalog's reference: terminal for that object. {@link
 * dev.objlog.store.TransientStoreException} once the store's retries are spent: retry later.
 * {@link ReaderClosedException} after the reader closed.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public interface PartitionReader {

  int partition();

  /**
   * The head as {@code freshness} allows ({@link Freshness#ON_TAIL} refreshes only when none is
   * known). A partition that does not exist yet reads as empty at LSN 0.
   */
  PartitionHead head(Freshness freshness);

  /**
   * Up to {@code limit} records from {@code startLsn}.
   *
   * @param limit ≤ 0 means {@link ReaderOptions#maxRecordsPerBatch()}; larger values are capped
   * @throws dev.objlog.LsnExpiredException if {@code startLsn} is below the retention floor
   */
  ReadResult read(long startLsn, int limit, Freshness freshness);

  /** {@link #read(long, int, Freshness)} with {@link Freshness#ON_TAIL}. */
  default ReadResult read(long startLsn, int limit) {
    return read(startLsn, limit, Freshness.ON_TAIL);
  }

  /**
   * Up to {@code limit} records from the first record whose timestamp is at or after {@code
   * timestampMs}; empty (with {@code nextLsn} = the head's next LSN) when no record is that recent.
   * With {@link Freshness#ON_TAIL} the head is refreshed when the known head has no record that
   * recent.
   */
  ReadResult readFromTimestamp(long timestampMs, int limit, Freshness freshness);

  /** {@link #readFromTimestamp(long, int, Freshness)} with {@link Freshness#ON_TAIL}. */
  default ReadResult readFromTimestamp(long timestampMs, int limit) {
    return readFromTimestamp(timestampMs, limit, Freshness.ON_TAIL);
  }

  /**
   * The record at exactly {@code lsn} (reading one block at most), refreshing the head when {@code
   * lsn} is at or beyond the known next LSN; empty when it does not exist yet.
   *
   * @throws dev.objlog.LsnExpiredException if {@code lsn} is below the retention floor
   */
  Optional<ReadRecord> fetch(long lsn);

  /**
   * Every record from {@code fromLsn} up to the head's next LSN as of this call (refreshed), in
   * order, fetching up to {@link ReaderOptions#readAheadBlocks()} blocks (and the segment indexes
   * they need) in the background while the caller consumes, so a replay is not bound by one
   * request's latency per block. Memory stays bounded by the read-ahead depth; replayed blocks do
   * not displace the block cache.
   *
   * <p>Close the stream (try-with-resources) when stopping early: that cancels the read-ahead.
   * Failures surface from the stream's terminal operation as the exceptions listed on this type.
   *
   * @throws dev.objlog.LsnExpiredException if {@code fromLsn} is below the retention floor
   */
  Stream<ReadRecord> replay(long fromLsn);

  /** {@link #replay(long)} ending before {@code toLsnExclusive} (or the head's next LSN if lower). */
  Stream<ReadRecord> replay(long fromLsn, long toLsnExclusive);

  /**
   * A cursor at {@code startLsn} reading batches of up to {@code limit} records (≤ 0: the
   * reader's maximum). No I/O until its first {@link Cursor#next()}.
   */
  Cursor cursor(long startLsn, int limit);

  /**
   * A cursor continuing from a checkpoint. Checks, in this order (PROTOCOLS.md §5.5): {@code
   * limit ≥ 0} ({@link dev.objlog.InvalidArgumentException}); version 1 ({@link
   * CheckpointInvalidException}); the partition is this reader's ({@link
   * CheckpointMismatchException}); then, against a refreshed head: the stream is this reader's
   * ({@link CheckpointMismatchException}); the position is not below the retention floor ({@link
   * dev.objlog.LsnExpiredException}) and not beyond the next LSN ({@link
   * CheckpointAheadException}).
   */
  Cursor resume(CursorCheckpoint checkpoint, int limit);
}
