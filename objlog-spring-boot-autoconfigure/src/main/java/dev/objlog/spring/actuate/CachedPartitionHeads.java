package dev.objlog.spring.actuate;

import dev.objlog.Objlog;
import dev.objlog.PartitionHead;
import dev.objlog.SegmentPage;
import dev.objlog.SegmentRef;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.StoreActivity;
import dev.objlog.store.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Partition heads read at most once per refresh interval, however many callers ask: what the
 * objlog console shows ({@code GET /actuator/objlog?heads=cached}), so that any number of open
 * pages costs the store at most one head read per partition per interval.
 *
 * <p>Besides the head, each entry keeps the bytes of the partition's reachable segments. It is
 * summed once from a full listing of the catalog (again after retention moved the floor), and
 * afterwards grows by the segments listed from the previous next LSN, which the head read of the
 * refresh returns with it: a refresh of a partition whose new segments are still in the head's
 * open leaf costs one conditional GET, an unchanged head transfers no body.
 *
 * <p>A failed read keeps the last head, records the error and counts as a refresh (a failing store
 * is not asked more often than a healthy one). Elapsed time comes from the {@link Ticker}; the
 * wall clock only stamps when a head was read.
 *
 * <p>Thread-safety: safe for concurrent use; concurrent callers of one partition wait for one read.
 * {@link #views} reads on up to {@value #PARALLEL_READS} daemon threads of its own (idle ones end
 * after 30 s); {@link #close} stops them.
 */
public final class CachedPartitionHeads implements AutoCloseable {
  private static final int LIST_PAGE = 1024;
  /** Head reads one overview runs at once: a cold cache of many partitions fills in parallel. */
  static final int PARALLEL_READS = 8;

  /**
   * A partition as last read.
   *
   * @param head the head, or null when the partition does not exist yet or was never read
   * @param reachableBytes bytes of the reachable segments (0 without a head)
   * @param readAt when the store was last asked (wall clock)
   * @param error the last read's failure, or null when it succeeded
   */
  public record View(@Nullable PartitionHead head, long reachableBytes, Instant readAt, @Nullable String error) {}

  private final ObjlogStreams streams;
  private final StoreActivity activity;
  private final long refreshNanos;
  private final Duration refresh;
  private final Ticker ticker;
  private final Clock clock;
  private final Map<String, Entry> entries = new ConcurrentHashMap<>();
  private final ExecutorService readers = new ThreadPoolExecutor(PARALLEL_READS, PARALLEL_READS, 30, TimeUnit.SECONDS,
      new LinkedBlockingQueue<>(), r -> {
        Thread t = new Thread(r, "objlog-console-heads");
        t.setDaemon(true);
        return t;
      });

  /**
   * @param refresh the longest a head is served without asking the store again (positive)
   */
  public CachedPartitionHeads(ObjlogStreams streams, StoreActivity activity, Duration refresh, Ticker ticker,
      Clock clock) {
    this.streams = Objects.requireNonNull(streams, "streams");
    this.activity = Objects.requireNonNull(activity, "activity");
    this.refresh = Objects.requireNonNull(refresh, "refresh");
    if (refresh.isNegative() || refresh.isZero()) {
      throw new IllegalArgumentException("refresh must be positive, was " + refresh);
    }
    this.refreshNanos = refresh.toNanos();
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.clock = Objects.requireNonNull(clock, "clock");
    ((ThreadPoolExecutor) readers).allowCoreThreadTimeOut(true);
  }

  /** The refresh interval. */
  public Duration refresh() {
    return refresh;
  }

  /** The partition's head, read from the store only when the cached one is a refresh interval old. */
  public View view(String streamName, int partition) {
    Entry entry = entries.computeIfAbsent(streamName + '\u0000' + partition, k -> new Entry());
    synchronized (entry) {
      if (!entry.fresh()) {
        entry.view = read(streams.log(streamName), partition, entry.view);
        entry.readAtNanos = ticker.read();
      }
      return entry.view;
    }
  }

  /**
   * Partitions 0 to {@code partitions - 1} of a stream, as {@link #view}; those to read again are
   * read {@value #PARALLEL_READS} at a time.
   */
  public List<View> views(String streamName, int partitions) {
    List<Future<View>> reads = new ArrayList<>(partitions);
    for (int p = 0; p < partitions; p++) {
      Entry entry = entries.get(streamName + '\u0000' + p);
      int partition = p;
      reads.add(entry != null && entry.fresh() ? CompletableFuture.completedFuture(entry.view)
          : readers.submit(() -> view(streamName, partition)));
    }
    List<View> out = new ArrayList<>(partitions);
    for (Future<View> read : reads) {
      try {
        out.add(read.get());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while reading the heads of " + streamName, e);
      } catch (ExecutionException e) {
        throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
      }
    }
    return out;
  }

  /** Stops the reading threads. */
  @Override
  public void close() {
    readers.shutdownNow();
  }

  private View read(Objlog log, int partition, @Nullable View previous) {
    PartitionHead known = previous == null ? null : previous.head();
    Instant now = clock.instant();
    try {
      boolean incremental = known != null;
      long from = incremental ? known.nextLsn() : 0;
      Optional<SegmentPage> first = log.segments(partition, from, LIST_PAGE);
      activity.success();
      if (first.isEmpty()) {
        return new View(null, 0, now, null);
      }
      PartitionHead head = first.get().head();
      if (incremental && (head.oldestLsn() != known.oldestLsn()
          || Long.compareUnsigned(head.nextLsn(), known.nextLsn()) < 0)) {
        // Retention moved the floor: sum the reachable segments again from the floor.
        incremental = false;
        first = log.segments(partition, 0, LIST_PAGE);
        if (first.isEmpty()) {
          return new View(null, 0, now, null);
        }
        head = first.get().head();
      }
      long bytes = incremental ? previous.reachableBytes() : 0;
      SegmentPage page = first.get();
      while (true) {
        for (SegmentRef segment : page.segments()) {
          bytes += segment.sizeBytes();
        }
        if (!page.hasMore()) {
          break;
        }
        page = log.segments(partition, page.nextLsn(), LIST_PAGE).orElseThrow();
        head = page.head();
      }
      return new View(head, bytes, now, null);
    } catch (RuntimeException e) {
      activity.failure(e);
      String error = e.getClass().getSimpleName() + ": " + e.getMessage();
      return new View(known, previous == null ? 0 : previous.reachableBytes(), now, error);
    }
  }

  private final class Entry {
    private volatile @Nullable View view;
    private volatile long readAtNanos;

    boolean fresh() {
      return view != null && ticker.read() - readAtNanos < refreshNanos;
    }
  }
}
