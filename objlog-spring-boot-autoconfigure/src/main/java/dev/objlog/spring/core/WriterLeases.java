package dev.objlog.spring.core;

import dev.objlog.coordination.Lease;
import dev.objlog.coordination.LeaseStore;
import dev.objlog.coordination.PartitionSharing;
import dev.objlog.spring.coordination.LoggingReporter;
import dev.objlog.store.Ticker;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The writer leases of one {@link ObjlogTemplate}: per stream with leases, a {@link
 * PartitionSharing} of the writers of that stream (member slots over all its partitions, the
 * configured writer partitions shared), ticked on one background thread every renew interval.
 * This class only turns its decisions into writers: a partition granted opens for sends; one
 * handed over or lost takes no more sends at once, and its writer closes on a separate hand-over
 * thread (a writer's close waits for its pending records to commit), so a slow store never holds
 * up the renewals of the others. A handed-over partition's lease stays held, renewed, until its
 * writer closed; then it is released.
 *
 * <p>A lease is kept while it is surely valid: its ttl minus one renew interval, counted on the
 * ticker from when its last confirmed acquire or renewal was sent. That ticker reading, the
 * partition's <em>deadline</em>, goes to the {@link Listener} with every grant and renewal, and
 * past it the partition takes no sends, even before a round notices: {@link #held} and {@link
 * #isHeld} leave it out. A partition whose acquire or renewal was confirmed only after the
 * deadline it gives (a reply slower than the ttl) is not started, or is given up, and its lease
 * released.
 *
 * <p>Thread-safety: {@link #held}, {@link #isHeld} and {@link #status} may be called from any
 * thread; the rest is driven by the template.
 */
final class WriterLeases implements AutoCloseable {
  private static final Log logger = LogFactory.getLog(WriterLeases.class);

  /** What the template does when a partition is gained or must be given up. */
  interface Listener {
    /** The partition may take sends from now, until its deadline ({@link #leaseUntil}, called first). */
    void granted(String streamName, int partition);

    /**
     * The partition may take sends until ticker reading {@code deadlineNanos}: called before
     * {@link #granted}, and after every renewal. On the lease thread: must not block.
     */
    default void leaseUntil(String streamName, int partition, long deadlineNanos) {}

    /**
     * The lease is being given up (or was lost): refuse sends from now on. Called on the lease
     * thread before {@link #givingUp} is queued for the hand-over thread: must not block.
     */
    default void stopSending(String streamName, int partition) {}

    /** Called before the lease is released (or after it was lost): stop writing the partition. */
    void givingUp(String streamName, int partition);
  }

  private final LeaseStore store;
  private final String owner;
  private final Listener listener;
  private final Ticker ticker;
  /** Written by {@link #add} before start, or by {@link #addStarted} under {@code this}; read without a lock. */
  private final Map<String, StreamLeases> streams = new ConcurrentHashMap<>();
  private boolean closed; // guarded by this
  private final ScheduledExecutorService executor;
  /** Closes the writers of partitions given up, off the renewal thread. */
  private final ExecutorService closer;

  WriterLeases(LeaseStore store, String owner, Listener listener, Ticker ticker) {
    this.store = Objects.requireNonNull(store, "store");
    this.owner = Objects.requireNonNull(owner, "owner");
    this.listener = Objects.requireNonNull(listener, "listener");
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "objlog-writer-leases");
      t.setDaemon(true);
      return t;
    });
    this.closer = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "objlog-writer-handover");
      t.setDaemon(true);
      return t;
    });
  }

  /** Adds a stream; call before {@link #start()}. */
  void add(String streamName, int partitionCount, PartitionSet candidates, WriterLeaseSettings settings) {
    streams.put(streamName, new StreamLeases(streamName, partitionCount, candidates, settings));
  }

  /** Runs a first round per stream on the calling thread, then every renew interval in the background. */
  void start() {
    for (StreamLeases s : streams.values()) {
      schedule(s);
    }
  }

  /**
   * Adds a stream after {@link #start()} (one auto-created on first use) and runs its first round
   * on the calling thread, as {@code start} does.
   *
   * @throws IllegalStateException when closed, or when the stream is already kept
   */
  void addStarted(String streamName, int partitionCount, PartitionSet candidates, WriterLeaseSettings settings) {
    StreamLeases s = new StreamLeases(streamName, partitionCount, candidates, settings);
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("the writer leases are closed");
      }
      if (streams.putIfAbsent(streamName, s) != null) {
        throw new IllegalStateException("stream '" + streamName + "' already has writer leases");
      }
    }
    schedule(s);
  }

  private void schedule(StreamLeases s) {
    s.round(); // after close() this is a no-op: a closed PartitionSharing does not tick
    long interval = s.settings.renewInterval().toNanos();
    try {
      executor.scheduleWithFixedDelay(s::round, interval, interval, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      // Closed meanwhile: close() releases what the first round took.
    }
  }

  String owner() {
    return owner;
  }

  boolean manages(String streamName) {
    return streams.containsKey(streamName);
  }

  /**
   * The partitions of a stream this instance may write now, ascending; none for a stream not (yet)
   * kept here (an auto-created stream's slots exist just before {@link #addStarted} runs).
   */
  int[] held(String streamName) {
    StreamLeases s = streams.get(streamName);
    if (s == null) {
      return new int[0];
    }
    long now = ticker.read();
    return Arrays.stream(s.heldSnapshot).filter(p -> s.beforeDeadline(p, now)).toArray();
  }

  /** This instance's leases of a stream as of the last round (no store request). */
  WriterLeaseStatus status(String streamName) {
    return streams.get(streamName).statusSnapshot;
  }

  boolean isHeld(String streamName, int partition) {
    StreamLeases s = streams.get(streamName);
    return s != null && s.writable.contains(partition) && s.beforeDeadline(partition, ticker.read());
  }

  /** Stops renewing, closes every leased partition's writer, then releases the leases. */
  @Override
  public void close() {
    synchronized (this) {
      closed = true; // from here no stream is added, so the loops below see every one
    }
    executor.shutdown();
    for (StreamLeases s : streams.values()) {
      s.sharing.close(); // waits for a round in progress
    }
    closer.shutdown(); // hand-overs already started finish first: their writers close
    try {
      if (!closer.awaitTermination(10, TimeUnit.MINUTES)) {
        logger.warn("Writer hand-overs still running after 10 minutes; their leases expire on their own");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (StreamLeases s : streams.values()) {
      s.releaseAll();
    }
  }

  private final class StreamLeases implements PartitionSharing.Partitions {
    final String streamName;
    final WriterLeaseSettings settings;
    final PartitionSharing sharing;
    /** Partitions granted and not given up: sends go to these only. */
    final Set<Integer> writable = new ConcurrentSkipListSet<>();
    /** Partitions whose writer the closer is still closing: their leases are not given up before. */
    final Map<Integer, Future<?>> closing = new ConcurrentHashMap<>();
    /** The deadline (ticker reading) of each writable partition. */
    final Map<Integer, Long> deadlines = new ConcurrentHashMap<>();
    /**
     * Partitions given up because their deadline passed before their grant or renewal was
     * confirmed; the next round hands their leases over ({@link #gaveUp}). Tick thread only.
     */
    final Set<Integer> pastDeadline = ConcurrentHashMap.newKeySet();
    volatile int[] heldSnapshot = new int[0];
    volatile WriterLeaseStatus statusSnapshot = new WriterLeaseStatus(owner, -1, 0, List.of());

    StreamLeases(String streamName, int partitionCount, PartitionSet candidates, WriterLeaseSettings settings) {
      this.streamName = streamName;
      this.settings = settings;
      // Kept only while surely valid: ttl minus one round since the last confirmation.
      PartitionSharing.Settings leases = new PartitionSharing.Settings(store, owner, settings.ttl(),
          settings.renewInterval(), settings.renewInterval());
      // Member slots over every partition of the stream, keyed as the previous release keyed them.
      this.sharing = new PartitionSharing(leases, null, streamName, candidates.stream().boxed().toList(),
          IntStream.range(0, partitionCount).boxed().toList(), ticker, this, LoggingReporter.INSTANCE);
    }

    void round() {
      try {
        sharing.tick();
      } catch (RuntimeException e) {
        logger.warn("Writer lease round of stream '" + streamName + "' failed; retrying next round", e);
      }
      publish(); // the renewals' new expiries and the member count
    }

    @Override
    public void start(int partition, long deadlineNanos) {
      if (ticker.read() - deadlineNanos >= 0) {
        logger.warn("The writer lease of partition " + partition + " of stream '" + streamName + "' was granted only"
            + " after it may already have expired (a lease request slower than its ttl); releasing it");
        pastDeadline.add(partition);
        return;
      }
      deadlines.put(partition, deadlineNanos);
      listener.leaseUntil(streamName, partition, deadlineNanos);
      listener.granted(streamName, partition); // before publishing: what held() lists is writable
      writable.add(partition);
      publish();
    }

    @Override
    public void extend(int partition, long deadlineNanos) {
      if (!writable.contains(partition)) {
        return; // handed over or lost: its writer is closing and takes no sends
      }
      if (ticker.read() - deadlineNanos >= 0) {
        logger.warn("The writer lease of partition " + partition + " of stream '" + streamName + "' was renewed only"
            + " after it may already have expired (a lease request slower than its ttl); closing its writer");
        pastDeadline.add(partition);
        closeLater(partition);
        return;
      }
      deadlines.put(partition, deadlineNanos);
      listener.leaseUntil(streamName, partition, deadlineNanos);
    }

    boolean beforeDeadline(int partition, long now) {
      Long deadline = deadlines.get(partition);
      return deadline != null && now - deadline < 0;
    }

    @Override
    public void requestStop(int partition, boolean saveCheckpoint) {
      closeLater(partition);
    }

    @Override
    public void revoke(int partition) {
      logger.warn("Lost the writer lease of partition " + partition + " of stream '" + streamName
          + "' to another instance (or could not renew it in time); closing its writer");
      closeLater(partition);
    }

    /**
     * No more sends to {@code partition}, from now: the slot refuses them before this returns; its
     * writer closes on the closer thread. A partition not writable (already closing: handed over,
     * then its lease lost before the close ran; or never started) is not closed again: a second
     * close could run after the partition was granted again and close the new writer.
     */
    private void closeLater(int partition) {
      if (!writable.remove(partition)) {
        return; // only the tick thread calls this
      }
      deadlines.remove(partition);
      listener.stopSending(streamName, partition);
      publish();
      if (closing.containsKey(partition)) {
        return; // the pending close closes the writer
      }
      FutureTask<Void> close = new FutureTask<>(() -> {
        try {
          listener.givingUp(streamName, partition);
        } finally {
          closing.remove(partition);
        }
        return null;
      });
      closing.put(partition, close);
      try {
        closer.execute(close);
      } catch (RejectedExecutionException e) { // closing: close it here
        close.run();
      }
    }

    @Override
    public boolean running(int partition) {
      return closing.containsKey(partition);
    }

    @Override
    public void awaitEnded(int partition, long millis) throws InterruptedException {
      Future<?> f = closing.get(partition);
      if (f == null) {
        return;
      }
      try {
        f.get(millis, TimeUnit.MILLISECONDS);
      } catch (ExecutionException | TimeoutException e) {
        // Still closing (or failed closing): its lease is released once it ended.
      }
    }

    @Override
    public boolean gaveUp(int partition) {
      return pastDeadline.remove(partition);
    }

    void releaseAll() {
      for (int partition : List.copyOf(writable)) {
        writable.remove(partition);
        deadlines.remove(partition);
        try {
          listener.givingUp(streamName, partition);
        } catch (RuntimeException e) {
          logger.warn("Closing the writer of partition " + partition + " of stream '" + streamName + "' failed", e);
        }
      }
      sharing.releaseAll();
      publish();
    }

    private void publish() {
      heldSnapshot = writable.stream().mapToInt(Integer::intValue).toArray();
      List<WriterLeaseStatus.HeldLease> leases = new ArrayList<>();
      for (int p : heldSnapshot) {
        Optional<Lease> lease = sharing.heldLease(p);
        lease.ifPresent(l -> leases.add(new WriterLeaseStatus.HeldLease(p, owner, l.epoch(), l.until())));
      }
      List<WriterLeaseStatus.OtherLease> others = new ArrayList<>();
      for (PartitionSharing.Seen seen : sharing.seen()) {
        Lease lease = seen.lease();
        if (!seen.heldHere() && lease != null && !lease.owner().equals(owner)) {
          others.add(new WriterLeaseStatus.OtherLease(seen.partition(), lease.owner(), lease.epoch(), lease.until()));
        }
      }
      statusSnapshot = new WriterLeaseStatus(owner, sharing.memberSlot(), sharing.members(), leases, others);
    }
  }
}
