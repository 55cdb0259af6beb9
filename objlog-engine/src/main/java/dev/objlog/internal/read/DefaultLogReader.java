package dev.objlog.internal.read;

import dev.objlog.PartitionHead;
import dev.objlog.internal.LogRuntime;
import dev.objlog.read.Freshness;
import dev.objlog.read.LogReader;
import dev.objlog.read.PartitionReader;
import dev.objlog.read.ReaderClosedException;
import dev.objlog.read.ReaderOptions;
import dev.objlog.read.Watch;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The reader of one log: per-partition readers (each with its own head tracker), the segment and
 * block caches they share, and the watch poller.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class DefaultLogReader implements LogReader {
  private final LogRuntime runtime;
  private final ReaderOptions options;
  private final SegmentAccess segments;
  private final Map<Integer, DefaultPartitionReader> partitions = new ConcurrentHashMap<>();
  private final Set<DefaultWatch> watches = ConcurrentHashMap.newKeySet();
  private final WatchPoller poller;
  private final Consumer<LogReader> onClose;
  private volatile boolean closed;

  public DefaultLogReader(LogRuntime runtime, ReaderOptions options) {
    this(runtime, options, r -> {});
  }

  /**
   * @param onClose told once when this reader closes (the log uses it to forget the reader)
   */
  public DefaultLogReader(LogRuntime runtime, ReaderOptions options, Consumer<LogReader> onClose) {
    this.onClose = Objects.requireNonNull(onClose, "onClose");
    this.runtime = Objects.requireNonNull(runtime, "runtime");
    this.options = Objects.requireNonNull(options, "options");
    this.segments = new SegmentAccess(runtime.store(), options.segmentIndexCacheBytes(), options.blockCacheBytes(),
        runtime.memory());
    this.poller = new WatchPoller(this);
  }

  LogRuntime runtime() {
    return runtime;
  }

  @Override
  public ReaderOptions options() {
    return options;
  }

  SegmentAccess segments() {
    return segments;
  }

  WatchPoller poller() {
    return poller;
  }

  boolean isClosed() {
    return closed;
  }

  void ensureOpen() {
    if (closed) {
      throw new ReaderClosedException("the reader of stream " + runtime.streamId() + " is closed");
    }
  }

  DefaultPartitionReader partitionReader(int partition) {
    return partitions.computeIfAbsent(partition, p -> new DefaultPartitionReader(this, p));
  }

  @Override
  public PartitionReader partition(int partition) {
    ensureOpen();
    return partitionReader(partition);
  }

  @Override
  public PartitionHead head(int partition) {
    return partition(partition).head(Freshness.LATEST);
  }

  @Override
  public Watch watch(Collection<Integer> partitions) {
    ensureOpen();
    Objects.requireNonNull(partitions, "partitions");
    DefaultWatch watch = new DefaultWatch(this, partitions);
    watches.add(watch);
    if (closed) {
      watch.close();
      ensureOpen();
    }
    return watch;
  }

  @Override
  public Watch watch(int... partitions) {
    List<Integer> list = new ArrayList<>(partitions.length);
    for (int p : partitions) {
      list.add(p);
    }
    return watch(list);
  }

  void forget(DefaultWatch watch) {
    watches.remove(watch);
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (DefaultWatch w : List.copyOf(watches)) {
      w.close();
    }
    poller.close();
    segments.close();
    for (DefaultPartitionReader r : partitions.values()) {
      r.tracker.wakeAll();
    }
    onClose.accept(this);
  }

  @Override
  public String toString() {
    return "LogReader[" + runtime.streamId() + "]";
  }
}
