package dev.objlog.spring.core;

import dev.objlog.spring.core.WriterLeaseStore.Kind;
import dev.objlog.store.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Keeps the writer leases of one {@link ObjlogTemplate}: on one background thread, every renew
 * interval and per stream with leases, it
 *
 * <ol>
 *   <li>renews (or first takes, the lowest free) its {@link Kind#MEMBER} slot, and counts the live
 *       slots: {@code m} instances, this one of rank {@code r} among them;
 *   <li>wants the candidate partitions (the configured writer partitions, in order) whose position
 *       {@code k} has {@code k % m == r}, a disjoint share that every instance computes alike;
 *   <li>gives up held partitions it no longer wants (no more sends at once; their writers close on
 *       a separate hand-over thread, then the leases are released, so a slow store never delays
 *       the renewals), renews the others, and tries to take wanted ones that are free or whose
 *       lease expired (not one whose writer is still closing).
 * </ol>
 *
 * <p>A renewal refused means another owner has the partition: its writer is closed. A renewal that
 * fails on storage keeps the lease only while it is surely still valid (its ttl, counted locally
 * from the last confirmation, outlasts the next round). Membership changes converge within two
 * rounds: the old holder releases, the new one takes.
 *
 * <p>Thread-safety: {@link #held}, {@link #isHeld} and {@link #status} may be called from any
 * thread; the rest is driven by the template.
 */
final class WriterLeaseKeeper implements AutoCloseable {
  private static final Log logger = LogFactory.getLog(WriterLeaseKeeper.class);

  /** What the template does when a partition is gained or must be given up. */
  interface Listener {
    void granted(String streamName, int partition);

    /** Called before the lease is released (or after it was lost): stop writing the partition. */
    void givingUp(String streamName, int partition);
  }

  private final WriterLeaseStore store;
  private final String owner;
  private final Listener listener;
  /** Elapsed time: whether a lease is surely still valid. A wall-clock jump must not decide that. */
  private final Ticker ticker;
  /** Wall time: only to show when a lease expires (the store keeps its own expiry). */
  private final Clock clock;
  /** Written under roundLock (by add before start, or addStarted); read without it. */
  private final Map<String, StreamLeases> streams = new ConcurrentHashMap<>();
  private final ScheduledExecutorService executor;
  /**
   * Closes the writers of partitions given up in a round, so that a slow store never holds up the
   * renewals of the others (a writer's close waits for its pending records to commit).
   */
  private final ExecutorService closer;
  private final Object roundLock = new Object();
  private boolean closed; // guarded by roundLock

  WriterLeaseKeeper(WriterLeaseStore store, String owner, Listener listener) {
    this(store, owner, listener, Ticker.SYSTEM, Clock.systemUTC());
  }

  WriterLeaseKeeper(WriterLeaseStore store, String owner, Listener listener, Ticker ticker, Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.owner = Objects.requireNonNull(owner, "owner");
    this.listener = Objects.requireNonNull(listener, "listener");
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.clock = Objects.requireNonNull(clock, "clock");
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
    synchronized (roundLock) {
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
    round(s);
    long interval = s.settings.renewInterval().toNanos();
    try {
      executor.scheduleWithFixedDelay(() -> round(s), interval, interval, TimeUnit.NANOSECONDS);
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

  /** The partitions of a stream this instance holds now, ascending. */
  int[] held(String streamName) {
    return streams.get(streamName).heldSnapshot;
  }

  /** This instance's leases of a stream as of the last round (no store request). */
  WriterLeaseStatus status(String streamName) {
    return streams.get(streamName).statusSnapshot;
  }

  boolean isHeld(String streamName, int partition) {
    StreamLeases s = streams.get(streamName);
    return s != null && s.isHeld(partition);
  }

  private void round(StreamLeases s) {
    synchronized (roundLock) {
      if (closed) {
        return;
      }
      try {
        s.round();
      } catch (RuntimeException e) {
        logger.warn("Writer lease round of stream '" + s.streamName + "' failed; retrying next round", e);
      }
    }
  }

  /** Stops renewing, gives every partition up (its writer closes first) and releases the leases. */
  @Override
  public void close() {
    executor.shutdown();
    synchronized (roundLock) {
      if (closed) {
        return;
      }
      closed = true;
    }
    closer.shutdown(); // hand-overs already started finish first: their writers close, their leases go
    try {
      if (!closer.awaitTermination(10, TimeUnit.MINUTES)) {
        logger.warn("Writer hand-overs still running after 10 minutes; their leases expire on their own");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (roundLock) {
      for (StreamLeases s : streams.values()) {
        s.releaseAll();
      }
    }
  }

  /**
   * A lease this instance holds: when its last confirmed acquire or renewal was sent, by the
   * ticker (for deciding whether it is surely still valid) and by the wall clock (for showing it).
   */
  private record Held(long epoch, long confirmedNanos, Instant sentAt) {}

  private final class StreamLeases {
    final String streamName;
    final int partitionCount;
    final int[] candidates;
    final WriterLeaseSettings settings;
    final Map<Integer, Held> partitions = new LinkedHashMap<>(); // guarded by roundLock
    /** Partitions whose writer the closer is still closing: not taken again until it is done. */
    final Set<Integer> handingOver = ConcurrentHashMap.newKeySet();
    int slot = -1; // guarded by roundLock
    @Nullable Held slotLease; // guarded by roundLock
    int members; // guarded by roundLock
    volatile int[] heldSnapshot = new int[0];
    volatile WriterLeaseStatus statusSnapshot = new WriterLeaseStatus(owner, -1, 0, List.of());

    StreamLeases(String streamName, int partitionCount, PartitionSet candidates, WriterLeaseSettings settings) {
      this.streamName = streamName;
      this.partitionCount = partitionCount;
      this.candidates = candidates.stream().toArray();
      this.settings = settings;
    }

    boolean isHeld(int partition) {
      for (int p : heldSnapshot) {
        if (p == partition) {
          return true;
        }
      }
      return false;
    }

    void round() {
      BitSet live = members();
      BitSet wanted = new BitSet(partitionCount);
      members = live.cardinality();
      if (slot >= 0) {
        int m = live.cardinality();
        int rank = live.get(0, slot).cardinality();
        for (int k = 0; k < candidates.length; k++) {
          if (k % m == rank) {
            wanted.set(candidates[k]);
          }
        }
      }
      for (Map.Entry<Integer, Held> e : new ArrayList<>(partitions.entrySet())) {
        int p = e.getKey();
        if (!wanted.get(p)) {
          giveUpLater(p, e.getValue(), true);
        } else {
          Held renewed = renew(Kind.PARTITION, p, e.getValue());
          if (renewed == null) {
            giveUpLater(p, e.getValue(), false);
          } else {
            partitions.put(p, renewed);
          }
        }
      }
      for (int p = wanted.nextSetBit(0); p >= 0; p = wanted.nextSetBit(p + 1)) {
        if (!partitions.containsKey(p) && !handingOver.contains(p)) {
          long sentNanos = ticker.read();
          Instant sentAt = clock.instant();
          OptionalLong epoch = acquire(Kind.PARTITION, p);
          if (epoch.isPresent()) {
            partitions.put(p, new Held(epoch.getAsLong(), sentNanos, sentAt));
            listener.granted(streamName, p); // before publishing: what held() lists is writable
            publish();
          }
        }
      }
      publish(); // the renewals' new expiries and the member count
    }

    /** Keeps or takes this instance's membership slot and returns every live slot. */
    private BitSet members() {
      if (slot >= 0) {
        Held renewed = renew(Kind.MEMBER, slot, Objects.requireNonNull(slotLease));
        if (renewed == null) {
          logger.warn("Lost writer membership slot " + slot + " of stream '" + streamName + "'; taking another");
          slot = -1;
          slotLease = null;
        } else {
          slotLease = renewed;
        }
      }
      BitSet live = new BitSet(partitionCount);
      for (int i = 0; i < partitionCount; i++) {
        if (i == slot) {
          live.set(i);
        } else if (isHeldSafely(i)) {
          live.set(i);
        } else if (slot < 0) {
          long sentNanos = ticker.read();
          Instant sentAt = clock.instant();
          OptionalLong epoch = acquire(Kind.MEMBER, i);
          if (epoch.isPresent()) {
            slot = i;
            slotLease = new Held(epoch.getAsLong(), sentNanos, sentAt);
            live.set(i);
          }
        }
      }
      if (slot < 0) {
        logger.warn("No free writer membership slot of stream '" + streamName + "' (" + partitionCount
            + " instances already write it): this instance writes none of its partitions");
      }
      return live;
    }

    private boolean isHeldSafely(int slotIndex) {
      try {
        return store.isHeld(Kind.MEMBER, streamName, slotIndex);
      } catch (RuntimeException e) {
        return true; // unknown: count it, so that this instance wants less rather than more
      }
    }

    private OptionalLong acquire(Kind kind, int index) {
      try {
        return store.tryAcquire(kind, streamName, index, owner, settings.ttl());
      } catch (RuntimeException e) {
        logger.debug("Could not take the writer lease " + kind + " " + index + " of stream '" + streamName + "'", e);
        return OptionalLong.empty();
      }
    }

    /** The renewed lease, or null when it is lost (refused, or unconfirmed for too long). */
    private @Nullable Held renew(Kind kind, int index, Held held) {
      // Sent-at times: the store counts the ttl from when it saw the request, which is no earlier.
      long sentNanos = ticker.read();
      Instant sentAt = clock.instant();
      try {
        if (store.renew(kind, streamName, index, owner, held.epoch(), settings.ttl())) {
          return new Held(held.epoch(), sentNanos, sentAt);
        }
        return null;
      } catch (RuntimeException e) {
        // On the ticker: a wall clock stepped back must not keep an expired lease, nor one stepped
        // forward give up a valid one.
        long surelyValidUntil = held.confirmedNanos() + settings.ttl().toNanos() - settings.renewInterval().toNanos();
        if (ticker.read() - surelyValidUntil < 0) {
          logger.warn("Could not renew the writer lease " + kind + " " + index + " of stream '" + streamName
              + "'; keeping it while it is surely valid", e);
          return held;
        }
        logger.warn("Could not renew the writer lease " + kind + " " + index + " of stream '" + streamName
            + "' before it may expire; giving it up", e);
        return null;
      }
    }

    /**
     * Stops sending to {@code partition} now and closes its writer (then releases the lease) on
     * the closer thread.
     */
    private void giveUpLater(int partition, Held held, boolean release) {
      partitions.remove(partition);
      publish();
      handingOver.add(partition);
      try {
        closer.execute(() -> {
          try {
            close(partition, held, release);
          } finally {
            handingOver.remove(partition);
          }
        });
      } catch (RejectedExecutionException e) { // closing: releaseAll no longer sees it, so close it here
        handingOver.remove(partition);
        close(partition, held, release);
      }
    }

    private void giveUp(int partition, Held held, boolean release) {
      partitions.remove(partition);
      publish();
      close(partition, held, release);
    }

    private void close(int partition, Held held, boolean release) {
      try {
        listener.givingUp(streamName, partition);
      } finally {
        if (release) {
          try {
            store.release(Kind.PARTITION, streamName, partition, owner, held.epoch());
          } catch (RuntimeException e) {
            logger.warn("Could not release the writer lease of partition " + partition + " of stream '"
                + streamName + "'; it expires on its own", e);
          }
        } else {
          logger.warn("Lost the writer lease of partition " + partition + " of stream '" + streamName
              + "' to another instance; closed its writer");
        }
      }
    }

    private void publish() {
      heldSnapshot = partitions.keySet().stream().mapToInt(Integer::intValue).sorted().toArray();
      List<WriterLeaseStatus.HeldLease> leases = new ArrayList<>();
      for (int p : heldSnapshot) {
        Held held = partitions.get(p);
        leases.add(new WriterLeaseStatus.HeldLease(p, owner, held.epoch(), held.sentAt().plus(settings.ttl())));
      }
      statusSnapshot = new WriterLeaseStatus(owner, slot, members, leases);
    }

    void releaseAll() {
      for (Map.Entry<Integer, Held> e : new ArrayList<>(partitions.entrySet())) {
        giveUp(e.getKey(), e.getValue(), true);
      }
      if (slot >= 0) {
        try {
          store.release(Kind.MEMBER, streamName, slot, owner, Objects.requireNonNull(slotLease).epoch());
        } catch (RuntimeException e) {
          logger.warn("Could not release writer membership slot " + slot + " of stream '" + streamName + "'", e);
        }
        slot = -1;
      }
      publish();
    }
  }
}
