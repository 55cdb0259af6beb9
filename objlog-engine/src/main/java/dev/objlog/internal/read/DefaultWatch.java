package dev.objlog.internal.read;

import dev.objlog.InvalidArgumentException;
import dev.objlog.read.PartitionNotWatchedException;
import dev.objlog.read.Tailer;
import dev.objlog.read.Watch;
import dev.objlog.read.WatchClosedException;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A set of watched partitions registered with the reader's poller, and their tailers.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
final class DefaultWatch implements Watch {
  private final DefaultLogReader reader;
  private final Set<Integer> partitions = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  DefaultWatch(DefaultLogReader reader, Collection<Integer> initial) {
    this.reader = reader;
    for (Integer p : initial) {
      if (p == null) {
        throw new InvalidArgumentException("a watched partition must not be null");
      }
      addPartition(p);
    }
  }

  @Override
  public synchronized void addPartition(int partition) {
    ensureOpen();
    if (partitions.add(partition)) {
      reader.poller().register(partition);
    }
  }

  @Override
  public synchronized void removePartition(int partition) {
    if (partitions.remove(partition)) {
      reader.poller().unregister(partition);
      reader.partitionReader(partition).tracker.wakeAll();
    }
  }

  @Override
  public Set<Integer> partitions() {
    return Set.copyOf(new TreeSet<>(partitions));
  }

  boolean isWatching(int partition) {
    return !closed && partitions.contains(partition);
  }

  boolean isClosed() {
    return closed;
  }

  private void ensureOpen() {
    if (closed) {
      throw new WatchClosedException("the watch is closed");
    }
    reader.ensureOpen();
  }

  @Override
  public Tailer tail(int partition, long startLsn, int limit) {
    ensureOpen();
    if (!partitions.contains(partition)) {
      throw new PartitionNotWatchedException("partition " + Integer.toUnsignedString(partition)
          + " is not watched; add it to the watch first");
    }
    return new DefaultTailer(this, reader.partitionReader(partition), startLsn, limit);
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (Integer p : partitions) {
      reader.poller().unregister(p);
      reader.partitionReader(p).tracker.wakeAll();
    }
    reader.forget(this);
  }
}
