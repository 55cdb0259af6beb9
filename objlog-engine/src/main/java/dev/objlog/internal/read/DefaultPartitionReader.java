package dev.objlog.internal.read;

import dev.objlog.CorruptObjectException;
import dev.objlog.InvalidArgumentException;
import dev.objlog.LsnExpiredException;
import dev.objlog.PartitionHead;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.internal.catalog.PartitionCatalog;
import dev.objlog.internal.catalog.SegmentListing;
import dev.objlog.read.CheckpointAheadException;
import dev.objlog.read.CheckpointInvalidException;
import dev.objlog.read.CheckpointMismatchException;
import dev.objlog.read.Cursor;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.read.Freshness;
import dev.objlog.read.PartitionReader;
import dev.objlog.read.ReadRecord;
import dev.objlog.read.ReadResult;
import dev.objlog.store.ObjectNotFoundException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Reads of one partition (PROTOCOLS.md §5.4): picks the head by freshness, walks the catalog's
 * segment listing from the start LSN, reads the blocks it needs, and stops at the limit or the
 * head's next LSN. A missing catalog page or segment object (retention moved on, or the head we
 * hold is old) triggers one head refresh and retry; if the start fell below the new floor the
 * read fails with {@link LsnExpiredException}.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
final class DefaultPartitionReader implements PartitionReader {
  /** Segments per catalog listing page while reading a batch. */
  private static final int LIST_PAGE = 128;

  final DefaultLogReader owner;
  final int partition;
  final PartitionCatalog catalog;
  final PartitionKeys keys;
  final HeadTracker tracker;
  final ReaderMeters meters;

  DefaultPartitionReader(DefaultLogReader owner, int partition) {
    this.owner = owner;
    this.partition = partition;
    this.catalog = owner.runtime().catalog(partition);
    this.keys = catalog.keys();
    this.meters = new ReaderMeters(owner.runtime(), partition);
    this.tracker = new HeadTracker(owner.runtime().streamId(), partition, catalog, meters,
        owner.runtime().ticker());
  }

  @Override
  public int partition() {
    return partition;
  }

  String streamId() {
    return owner.runtime().streamId();
  }

  @Override
  public PartitionHead head(Freshness freshness) {
    owner.ensureOpen();
    Objects.requireNonNull(freshness, "freshness");
    HeadView known = tracker.current();
    if (freshness == Freshness.LATEST || known == null) {
      return tracker.refresh(HeadTracker.Source.READ).view();
    }
    return known.view();
  }

  int effectiveLimit(int limit) {
    int max = owner.options().maxRecordsPerBatch();
    return limit <= 0 ? max : Math.min(limit, max);
  }

  @Override
  public ReadResult read(long startLsn, int limit, Freshness freshness) {
    owner.ensureOpen();
    Objects.requireNonNull(freshness, "freshness");
    long started = owner.runtime().ticker().read();
    try {
      HeadView head = tracker.headFor(freshness, startLsn);
      return readAgainst(head, startLsn, effectiveLimit(limit), true);
    } finally {
      meters.read.record(owner.runtime().ticker().read() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
    }
  }

  /** Reads against {@code head}, retrying once against a refreshed head on a missing object. */
  ReadResult readAgainst(HeadView head, long startLsn, int limit, boolean mayRetry) {
    requireNotExpired(head, startLsn);
    if (head.head() == null || head.atOrBeyondTail(startLsn)) {
      return new ReadResult(List.of(), startLsn, head.view());
    }
    try {
      ReadResult result = collect(head, startLsn, limit);
      meters.records.increment(result.records().size());
      return result;
    } catch (ObjectNotFoundException e) {
      if (!mayRetry) {
        throw e;
      }
      meters.retries.increment();
      HeadView fresh = tracker.refresh(HeadTracker.Source.READ);
      return readAgainst(fresh, startLsn, limit, false);
    }
  }

  static void requireNotExpired(HeadView head, long lsn) {
    if (head.head() != null && Long.compareUnsigned(lsn, head.oldestLsn()) < 0) {
      throw new LsnExpiredException(lsn, head.oldestLsn(), head.nextLsn());
    }
  }

  private ReadResult collect(HeadView view, long startLsn, int limit) {
    Head head = Objects.requireNonNull(view.head());
    long end = head.nextLsn();
    List<ReadRecord> out = new ArrayList<>(Math.min(limit, 256));
    long pos = startLsn;
    while (out.size() < limit && Long.compareUnsigned(pos, end) < 0) {
      // Every segment holds at least one record, so the records still wanted bound the segments
      // needed: a point read lists one segment and never loads the leaf page after its own.
      SegmentListing listing = catalog.listSegments(head, pos, Math.min(LIST_PAGE, limit - out.size()));
      if (listing.segments().isEmpty()) {
        throw new CorruptObjectException("catalog of partition " + Integer.toUnsignedString(partition)
            + " lists no segment at LSN " + Long.toUnsignedString(pos) + " below next LSN "
            + Long.toUnsignedString(end));
      }
      for (LeafEntry entry : listing.segments()) {
        if (out.size() >= limit || Long.compareUnsigned(pos, end) >= 0) {
          break;
        }
        if (Long.compareUnsigned(entry.lastLsn(), pos) < 0) {
          continue;
        }
        requireContains(entry, pos);
        pos = readSegment(entry, pos, end, limit, out, true);
      }
      if (!listing.hasMore()) {
        break;
      }
    }
    return new ReadResult(out, pos, view.view());
  }

  void requireContains(LeafEntry entry, long pos) {
    if (!entry.contains(pos)) {
      throw new CorruptObjectException("catalog of partition " + Integer.toUnsignedString(partition)
          + " has a gap: LSN " + Long.toUnsignedString(pos) + " is not in the next segment " + entry);
    }
  }

  /** Appends records of {@code entry} from {@code pos} to {@code out}; returns the new position. */
  private long readSegment(LeafEntry entry, long pos, long end, int limit, List<ReadRecord> out,
      boolean cache) {
    SegmentAccess.OpenSegment segment = owner.segments().open(keys, entry, meters);
    int blocks = segment.blockCount();
    for (int b = segment.reader().blockIndexForLsn(pos); b >= 0 && b < blocks; b++) {
      for (ReadRecord r : owner.segments().block(segment, b, cache, meters)) {
        if (out.size() >= limit || Long.compareUnsigned(pos, end) >= 0) {
          return pos;
        }
        if (Long.compareUnsigned(r.lsn(), pos) < 0) {
          continue;
        }
        if (r.lsn() != pos) {
          throw new CorruptObjectException("segment " + segment.key() + " skips from LSN "
              + Long.toUnsignedString(pos) + " to " + Long.toUnsignedString(r.lsn()));
        }
        out.add(r);
        pos++;
      }
      if (out.size() >= limit) {
        return pos;
      }
    }
    return pos;
  }

  @Override
  public ReadResult readFromTimestamp(long timestampMs, int limit, Freshness freshness) {
    owner.ensureOpen();
    Objects.requireNonNull(freshness, "freshness");
    long started = owner.runtime().ticker().read();
    try {
      HeadView head = tracker.current();
      boolean refresh = switch (freshness) {
        case CACHED -> head == null;
        case ON_TAIL -> head == null || head.lastSegment() == null
            || timestampMs > Objects.requireNonNull(head.lastSegment()).maxTimestampMs();
        case LATEST -> true;
      };
      if (refresh) {
        head = tracker.refresh(HeadTracker.Source.READ);
      }
      return timestampAgainst(head, timestampMs, effectiveLimit(limit), true);
    } finally {
      meters.read.record(owner.runtime().ticker().read() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
    }
  }

  private ReadResult timestampAgainst(HeadView view, long timestampMs, int limit, boolean mayRetry) {
    Head head = view.head();
    if (head == null) {
      return new ReadResult(List.of(), view.nextLsn(), view.view());
    }
    long start;
    try {
      Optional<LeafEntry> entry = catalog.findSegmentByTimestamp(head, timestampMs);
      if (entry.isEmpty()) {
        return new ReadResult(List.of(), head.nextLsn(), view.view());
      }
      SegmentAccess.OpenSegment segment = owner.segments().open(keys, entry.get(), meters);
      OptionalLong lsn = segment.reader().lsnForTimestamp(timestampMs);
      if (lsn.isEmpty()) {
        throw new CorruptObjectException("segment " + segment.key() + " has max timestamp "
            + entry.get().maxTimestampMs() + " but no record at or after " + timestampMs);
      }
      start = lsn.getAsLong();
      if (Long.compareUnsigned(start, head.oldestLsn()) < 0) {
        start = head.oldestLsn();
      }
    } catch (ObjectNotFoundException e) {
      if (!mayRetry) {
        throw e;
      }
      meters.retries.increment();
      return timestampAgainst(tracker.refresh(HeadTracker.Source.READ), timestampMs, limit, false);
    }
    return readAgainst(view, start, limit, mayRetry);
  }

  @Override
  public Optional<ReadRecord> fetch(long lsn) {
    ReadResult result = read(lsn, 1, Freshness.ON_TAIL);
    if (result.records().isEmpty() || result.records().get(0).lsn() != lsn) {
      return Optional.empty();
    }
    return Optional.of(result.records().get(0));
  }

  @Override
  public Stream<ReadRecord> replay(long fromLsn) {
    return replay(fromLsn, -1L);
  }

  @Override
  public Stream<ReadRecord> replay(long fromLsn, long toLsnExclusive) {
    owner.ensureOpen();
    HeadView head = tracker.refresh(HeadTracker.Source.READ);
    requireNotExpired(head, fromLsn);
    long end = Long.compareUnsigned(toLsnExclusive, head.nextLsn()) < 0 ? toLsnExclusive : head.nextLsn();
    Replay replay = replayAgainst(head, fromLsn, end);
    return StreamSupport.stream(
            Spliterators.spliteratorUnknownSize(replay, Spliterator.ORDERED | Spliterator.NONNULL),
            false)
        .onClose(replay::close);
  }

  /**
   * The one way a read-ahead starts, for {@link #replay} and a tailer behind the head: {@code [from,
   * end)} of {@code head}, {@link dev.objlog.read.ReaderOptions#readAheadBlocks()} blocks ahead on
   * the runtime's executor.
   */
  Replay replayAgainst(HeadView head, long from, long end) {
    return new Replay(this, head, from, end, owner.options().readAheadBlocks(), owner.runtime().scheduler());
  }

  @Override
  public Cursor cursor(long startLsn, int limit) {
    owner.ensureOpen();
    if (limit < 0) {
      throw new InvalidArgumentException("a cursor limit must not be negative, was " + limit);
    }
    return new DefaultCursor(this, startLsn, limit);
  }

  @Override
  public Cursor resume(CursorCheckpoint checkpoint, int limit) {
    owner.ensureOpen();
    Objects.requireNonNull(checkpoint, "checkpoint");
    if (limit < 0) {
      throw new InvalidArgumentException("a cursor limit must not be negative, was " + limit);
    }
    if (checkpoint.version() != CursorCheckpoint.VERSION) {
      throw new CheckpointInvalidException("cursor checkpoint version "
          + Integer.toUnsignedString(checkpoint.version()) + " is not supported (expected "
          + CursorCheckpoint.VERSION + ")");
    }
    if (checkpoint.partition() != partition) {
      throw new CheckpointMismatchException("cursor checkpoint is for partition "
          + Integer.toUnsignedString(checkpoint.partition()) + ", not "
          + Integer.toUnsignedString(partition));
    }
    HeadView head = tracker.refresh(HeadTracker.Source.READ);
    if (!checkpoint.streamId().equals(head.view().streamId())) {
      throw new CheckpointMismatchException("cursor checkpoint is for stream \"" + checkpoint.streamId()
          + "\", not \"" + head.view().streamId() + "\"");
    }
    checkPosition(head, checkpoint.nextLsn());
    return new DefaultCursor(this, checkpoint.nextLsn(), limit);
  }

  /** A position is valid in [oldest, next] of {@code head}. */
  static void checkPosition(HeadView head, long lsn) {
    requireNotExpired(head, lsn);
    if (Long.compareUnsigned(lsn, head.nextLsn()) > 0) {
      throw new CheckpointAheadException("position " + Long.toUnsignedString(lsn)
          + " is beyond the partition's next LSN " + Long.toUnsignedString(head.nextLsn()));
    }
  }

  /** Appends a whole block's worth for the replay: used by {@link Replay}. */
  SegmentAccess segments() {
    return owner.segments();
  }
}
