package dev.objlog.read;

/**
 * A position in one partition that advances as batches are read (PROTOCOLS.md §5.5).
 *
 * <p>Thread-safety: for one thread at a time (a consumer loop); {@link #position()} may be read
 * from any thread. {@link #fork()} gives an independent cursor for another thread.
 */
public interface Cursor extends AutoCloseable {

  int partition();

  /**
   * Reads the next batch with {@link Freshness#ON_TAIL} and advances past it; an empty batch (at
   * the tail) leaves the position unchanged.
   *
   * @throws dev.objlog.LsnExpiredException if the position fell below the retention floor
   * @throws ReaderClosedException if the cursor or its reader is closed
   */
  ReadResult next();

  /** Moves the cursor to {@code lsn} (no I/O; an invalid position surfaces from {@link #next()}). */
  void seek(long lsn);

  /** The LSN the next {@link #next()} starts at (u64). */
  long position();

  /**
   * The cursor's position as a checkpoint, after checking it against a refreshed head.
   *
   * @throws dev.objlog.LsnExpiredException if the position is below the retention floor
   * @throws CheckpointAheadException if the position is beyond the head's next LSN
   */
  CursorCheckpoint checkpoint();

  /** An independent cursor at the same position with the same limit. */
  Cursor fork();

  /** Idempotent; later calls fail with {@link ReaderClosedException}. */
  @Override
  void close();
}
