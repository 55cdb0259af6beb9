package dev.objlog.internal.read;

import dev.objlog.read.Cursor;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.read.Freshness;
import dev.objlog.read.ReadResult;
import dev.objlog.read.ReaderClosedException;

/**
 * A cursor (PROTOCOLS.md §5.5): reads with {@link Freshness#ON_TAIL} and advances only past
 * returned records. The stream id is the reader's (the catalog identity already proves every head
 * belongs to it), so the checkpoint's stream id is bound from the start.
 *
 * <p>Thread-safety: one thread at a time; {@link #position()} and {@link #close()} from any.
 */
final class DefaultCursor implements Cursor {
  private final DefaultPartitionReader reader;
  private final int limit;
  private volatile long position;
  private volatile boolean closed;

  DefaultCursor(DefaultPartitionReader reader, long position, int limit) {
    this.reader = reader;
    this.position = position;
    this.limit = limit;
  }

  @Override
  public int partition() {
    return reader.partition;
  }

  private void ensureOpen() {
    if (closed) {
      throw new ReaderClosedException("the cursor of partition " + Integer.toUnsignedString(reader.partition)
          + " is closed");
    }
  }

  @Override
  public ReadResult next() {
    ensureOpen();
    ReadResult result = reader.read(position, limit, Freshness.ON_TAIL);
    if (!result.records().isEmpty()) {
      position = result.nextLsn();
    }
    return result;
  }

  @Override
  public void seek(long lsn) {
    ensureOpen();
    position = lsn;
  }

  @Override
  public long position() {
    return position;
  }

  @Override
  public CursorCheckpoint checkpoint() {
    ensureOpen();
    reader.owner.ensureOpen();
    long at = position;
    HeadView head = reader.tracker.refresh(HeadTracker.Source.READ);
    DefaultPartitionReader.checkPosition(head, at);
    return CursorCheckpoint.of(reader.streamId(), reader.partition, at);
  }

  @Override
  public Cursor fork() {
    ensureOpen();
    return new DefaultCursor(reader, position, limit);
  }

  @Override
  public void close() {
    closed = true;
  }

  @Override
  public String toString() {
    return "Cursor[" + reader.streamId() + "/" + Integer.toUnsignedString(reader.partition) + " at "
        + Long.toUnsignedString(position) + "]";
  }
}
