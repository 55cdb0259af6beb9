package dev.objlog.coordination;

import dev.objlog.store.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * How the members of one group (a consumer group, or the writers of a stream) share a stream's
 * partitions through a {@link LeaseStore}: one algorithm for listeners and writers.
 *
 * <p>The scheme, on every {@link #tick()} (each renew interval):
 *
 * <ol>
 *   <li>renew the partition leases held, and those being handed over;
 *   <li>renew (or first take, the lowest free) this member's <em>member slot</em>, a {@link
 *       LeaseId.Role#MEMBER} lease; the valid slots are the live members: {@code M} of them, this
 *       one of rank {@code r} (live slots below its own);
 *   <li>aim at a fair share of the {@code P} partitions: {@code P / M}, plus one for the ranks
 *       below {@code P % M} (no slot: none). Above it, hand over the highest partitions held;
 *       below it, take free ones (never held, released, or expired), lowest first.
 * </ol>
 *
 * <p>Once the group is quiet (every member ticked twice since the last join, leave or crash),
 * every partition has exactly one owner and shares differ by at most one. A member that cannot
 * read the member slots this tick only renews: it neither sheds nor takes.
 *
 * <p>Safety: a partition runs only until its <em>deadline</em>: the {@link Ticker} reading (elapsed
 * time, never the wall clock) at which its last successful acquire or renewal was sent, plus the
 * ttl, minus the safety margin. The stored expiry stays wall time, since other instances read it;
 * the deadline does not move when this machine's wall clock is stepped. Measured from the sending
 * of the request, it ends no later than the store's expiry. {@link Partitions} must check it
 * before acting on a partition; a renewal that fails past the deadline revokes the partition. A
 * partition handed over keeps its lease, renewed, until its work {@linkplain Partitions#running
 * stopped}; only then is the lease released, so the next owner never overlaps the old one.
 *
 * <p>Time: deadlines and hand-over waits run on the injected {@link Ticker}; ticks run on the
 * caller's {@link ScheduledExecutorService} ({@link #schedule}) or are called directly (tests on
 * virtual time). No wall clock is read here: lease expiries are the store's.
 *
 * <p>Thread-safety: {@link #tick()}, {@link #releaseAll()} and {@link #close()} are serialized on
 * this object; the status getters may be called from any thread.
 */
public final class PartitionSharing implements AutoCloseable {

  /** What the member drives: the work (consumers, writers) of each partition. */
  public interface Partitions {
    /**
     * Starts {@code partition}, which must stop at ticker reading {@code deadlineNanos}. When it
     * throws, the partition is not kept: its lease is released (once any of its work that runs
     * anyway has ended), and a later tick may take it again.
     */
    void start(int partition, long deadlineNanos);

    /** Moves the deadline (a ticker reading) of a running partition after a renewal. */
    void extend(int partition, long deadlineNanos);

    /**
     * Asks {@code partition} to stop, without waiting; {@code saveCheckpoint}: the lease is still
     * valid, finish cleanly (save the position) first.
     */
    void requestStop(int partition, boolean saveCheckpoint);

    /** Stops {@code partition} at once without saving: its lease is lost. */
    void revoke(int partition);

    /** Whether work of {@code partition} still runs here (its lease must stay held until it ends). */
    boolean running(int partition);

    /** Waits up to {@code millis} of real time for the partition's work to end. */
    void awaitEnded(int partition, long millis) throws InterruptedException;

    /** Whether the partition's work gave the partition up on its own (lost race, deadline). */
    boolean gaveUp(int partition);
  }

  /** Where the algorithm reports what it did; the Spring module logs it. */
  public interface Reporter {
    /** Reports nothing. */
    Reporter SILENT = new Reporter() {
      @Override
      public void info(String message) {}

      @Override
      public void warn(String message, @Nullable Throwable cause) {}
    };

    void info(String message);

    void warn(String message, @Nullable Throwable cause);
  }

  /**
   * The lease settings of a member.
   *
   * @param leases where the leases live
   * @param owner this member's owner id in the leases
   * @param ttl how long a lease lasts without renewal
   * @param renewInterval how often {@link #schedule} ticks
   * @param safetyMargin how long before the ttl ends a partition must stop
   */
  public record Settings(LeaseStore leases, String owner, Duration ttl, Duration renewInterval, Duration safetyMargin) {
    public Settings {
      Objects.requireNonNull(leases, "leases");
      LeaseState.checkName("owner", owner);
      Objects.requireNonNull(ttl, "ttl");
      Objects.requireNonNull(renewInterval, "renewInterval");
      Objects.requireNonNull(safetyMargin, "safetyMargin");
      if (renewInterval.isNegative() || renewInterval.isZero() || safetyMargin.isNegative()
          || safetyMargin.compareTo(ttl) >= 0) {
        throw new IllegalArgumentException("the renew interval (" + renewInterval
            + ") must be positive and the safety margin (" + safetyMargin + ") shorter than the lease ttl (" + ttl
            + ")");
      }
    }
  }

  /**
   * What the last tick saw of one partition's lease.
   *
   * @param lease the valid lease, or null when nobody held one
   * @param heldHere whether this member holds it
   */
  public record Seen(int partition, @Nullable Lease lease, boolean heldHere) {}

  /** A lease held, and the ticker reading until which it is surely ours. */
  private record Held(Lease lease, long deadlineNanos) {}

  private final Settings settings;
  private final LeaseId partitionIds;
  private final List<Integer> partitions;
  private final List<Integer> memberSlots;
  private final Ticker ticker;
  private final Partitions target;
  private final Reporter reporter;
  private final String name;
  private final Map<Integer, Held> held = new ConcurrentSkipListMap<>();
  /**
   * Partitions asked to stop whose work may still run: their leases stay held and renewed until it
   * ended (its last save needs a valid lease), then are released.
   */
  private final Map<Integer, Held> handingOver = new ConcurrentSkipListMap<>();
  private final Map<Integer, Seen> seen = new ConcurrentSkipListMap<>();
  private @Nullable Held slot;
  private volatile int slotIndex = -1;
  private volatile int members = 1;
  private @Nullable ScheduledFuture<?> ticking;
  private boolean closed;

  /**
   * A member.
   *
   * @param group the consumer group, or null for the writers of the stream
   * @param partitions the partitions to share, as every member lists them
   * @param memberSlots the indexes of the member-slot leases ({@link LeaseId#index()}), as every
   *     member lists them: at most this many members get a share
   */
  public PartitionSharing(Settings settings, @Nullable String group, String streamName, List<Integer> partitions,
      List<Integer> memberSlots, Ticker ticker, Partitions target, Reporter reporter) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.partitionIds = new LeaseId(group, LeaseId.Role.PARTITION, streamName, 0);
    this.partitions = List.copyOf(partitions);
    this.memberSlots = List.copyOf(memberSlots);
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.target = Objects.requireNonNull(target, "target");
    this.reporter = Objects.requireNonNull(reporter, "reporter");
    this.name = (group == null ? "Writers" : "Group " + group) + " on " + streamName;
  }

  /** Ticks after {@code initialDelay} and then every renew interval on {@code scheduler}. */
  public synchronized void schedule(ScheduledExecutorService scheduler, Duration initialDelay) {
    if (closed || ticking != null) {
      throw new IllegalStateException(name + ": already scheduled or closed");
    }
    long interval = Math.max(1, settings.renewInterval().toNanos());
    ticking = scheduler.scheduleWithFixedDelay(this::safeTick, initialDelay.toNanos(), interval, TimeUnit.NANOSECONDS);
  }

  /** The live members counted by the last tick (this one included). */
  public int members() {
    return members;
  }

  /** This member's slot (its position among {@code memberSlots}), or -1 without one. */
  public int memberSlot() {
    return slotIndex;
  }

  /** The partitions this member holds now (not those being handed over), ascending. */
  public List<Integer> heldPartitions() {
    return List.copyOf(held.keySet());
  }

  /** The lease of a partition this member holds now, if it does. */
  public Optional<Lease> heldLease(int partition) {
    Held h = held.get(partition);
    return h == null ? Optional.empty() : Optional.of(h.lease());
  }

  /** What the last ticks saw of each partition's lease, by ascending partition. */
  public List<Seen> seen() {
    return List.copyOf(seen.values());
  }

  private void safeTick() {
    try {
      tick();
    } catch (RuntimeException e) {
      reporter.warn(name + ": lease tick failed; retrying in " + settings.renewInterval(), e);
    }
  }

  /** Renews, counts the members, hands over or takes partitions. */
  public synchronized void tick() {
    if (closed) {
      return;
    }
    // Partition renewals first: a failing membership read must not cost the running partitions.
    renewPartitions();
    BitSet live = countMembers();
    if (live == null) {
      return;
    }
    int share = share(live);
    List<Integer> mine = new ArrayList<>(held.keySet());
    List<Integer> shed = new ArrayList<>();
    for (int i = mine.size() - 1; i >= 0 && held.size() > share; i--) {
      int partition = mine.get(i);
      reporter.info(name + ": " + members + " members, handing over partition " + partition);
      handingOver.put(partition, held.remove(partition));
      target.requestStop(partition, true);
      shed.add(partition);
    }
    awaitHandOvers(shed);
    finishHandOvers();
    for (int partition : partitions) {
      if (held.containsKey(partition) || handingOver.containsKey(partition) || target.running(partition)) {
        continue; // work of ours still runs it: never start it twice
      }
      take(partition, share);
    }
  }

  private void take(int partition, int share) {
    LeaseId id = partitionId(partition);
    try {
      Optional<Lease> current = settings.leases().current(id);
      // A lease of ours we no longer track (work gave it up while the store was unreachable) is taken again.
      boolean othersHold = current.isPresent() && !current.get().owner().equals(settings.owner());
      if (othersHold || held.size() >= share) {
        remember(partition, current.orElse(null));
        return;
      }
      long sentAt = ticker.read();
      LeaseResult result = settings.leases().tryAcquire(id, settings.owner(), settings.ttl());
      if (result instanceof LeaseResult.Granted g) {
        long deadline = deadline(sentAt);
        Held taken = new Held(g.lease(), deadline);
        held.put(partition, taken);
        remember(partition, g.lease());
        reporter.info(name + ": took partition " + partition + " (epoch " + g.lease().epoch() + ")");
        try {
          target.start(partition, deadline);
        } catch (RuntimeException e) {
          giveUpUnstarted(partition, taken, e);
        }
      } else {
        remember(partition, ((LeaseResult.Refused) result).holder());
      }
    } catch (RuntimeException e) {
      // Not ours (or unknown): nothing starts; the next tick tries again.
      reporter.warn(name + ": could not take partition " + partition, e);
    }
  }

  /**
   * A partition whose start failed is not kept: a lease held without work would be renewed for
   * ever, and nobody (this member included) would process the partition. Its lease is released at
   * once, so that a later tick (here or elsewhere) takes it again; if some of its work runs all the
   * same, the lease is handed over instead and released once that work ended.
   */
  private void giveUpUnstarted(int partition, Held taken, RuntimeException failure) {
    held.remove(partition);
    if (target.running(partition)) {
      reporter.warn(name + ": starting partition " + partition + " failed; stopping it and releasing its lease"
          + " once it stopped", failure);
      handingOver.put(partition, taken);
      target.requestStop(partition, false);
      return;
    }
    reporter.warn(name + ": starting partition " + partition + " failed; releasing its lease", failure);
    release(partition, taken);
  }

  /**
   * This member's fair share: {@code P / M}, plus one for the lowest {@code P % M} ranks, where M
   * counts the live slots; none without a slot.
   */
  private int share(BitSet live) {
    int index = slotIndex;
    if (slot == null || index < 0) {
      return 0;
    }
    int m = live.cardinality();
    int rank = live.get(0, index).cardinality();
    int p = partitions.size();
    return p / m + (rank < p % m ? 1 : 0);
  }

  /**
   * Gives handed-over partitions a short while to finish the work in hand, so that the usual
   * hand-over completes in this tick; slow work keeps its lease (renewed) until it is done instead
   * of holding up the renewals of the other partitions.
   */
  private void awaitHandOvers(List<Integer> shed) {
    // A bound on blocking this thread, so real time (monotonic), not the ticker.
    long deadline = System.nanoTime() + settings.renewInterval().toNanos() / 2;
    for (int partition : shed) {
      try {
        target.awaitEnded(partition, Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Releases the leases of handed-over partitions whose work ended. */
  private void finishHandOvers() {
    for (int partition : List.copyOf(handingOver.keySet())) {
      if (!target.running(partition)) {
        release(partition, handingOver.remove(partition));
      }
    }
  }

  /** Keeps or takes this member's slot; the live slots, or null when they could not be read. */
  private @Nullable BitSet countMembers() {
    Held s = slot;
    int index = slotIndex;
    if (s != null) {
      long sentAt = ticker.read();
      try {
        LeaseResult r = settings.leases().renew(memberId(index), s.lease(), settings.ttl());
        if (r instanceof LeaseResult.Granted g) {
          slot = new Held(g.lease(), deadline(sentAt));
        } else {
          reporter.warn(name + ": lost member slot " + index + "; taking another", null);
          dropSlot();
        }
      } catch (RuntimeException e) {
        if (ticker.read() - s.deadlineNanos() >= 0) {
          reporter.warn(name + ": could not renew member slot " + index + " before it may expire; giving it up", e);
          dropSlot();
        } else {
          reporter.warn(name + ": could not renew member slot " + index, e);
        }
      }
    }
    BitSet live = new BitSet(memberSlots.size());
    try {
      for (int i = 0; i < memberSlots.size(); i++) {
        if (slot != null && i == slotIndex) {
          live.set(i);
          continue;
        }
        LeaseId id = memberId(i);
        Optional<Lease> current = settings.leases().current(id);
        if (current.isPresent() && !current.get().owner().equals(settings.owner())) {
          live.set(i);
        } else if (slot == null) {
          long sentAt = ticker.read();
          Optional<Lease> mine = settings.leases().tryAcquire(id, settings.owner(), settings.ttl()).grantedLease();
          if (mine.isPresent()) {
            slot = new Held(mine.get(), deadline(sentAt));
            slotIndex = i;
          }
          live.set(i); // this member's new slot, or the one of a member that won the race for it
        }
      }
    } catch (RuntimeException e) {
      reporter.warn(name + ": could not read the member slots; keeping the partitions held", e);
      return null;
    }
    if (slot == null) {
      reporter.warn(name + ": no free member slot (" + memberSlots.size()
          + " members already share the partitions); this member takes none", null);
    }
    // Without a slot (more members than slots) this member still counts itself.
    members = Math.max(1, slot == null ? live.cardinality() + 1 : live.cardinality());
    return live;
  }

  private void dropSlot() {
    slot = null;
    slotIndex = -1;
  }

  private void renewPartitions() {
    for (Map.Entry<Integer, Held> e : List.copyOf(held.entrySet())) {
      int partition = e.getKey();
      if (target.gaveUp(partition)) {
        // It stopped itself (lost race or deadline): release once its work ended.
        handingOver.put(partition, held.remove(partition));
        target.requestStop(partition, false);
        continue;
      }
      renew(partition, e.getValue(), held);
    }
    finishHandOvers(); // a lease whose work ended is released, not renewed once more first
    for (Map.Entry<Integer, Held> e : List.copyOf(handingOver.entrySet())) {
      renew(e.getKey(), e.getValue(), handingOver);
    }
  }

  private void renew(int partition, Held lease, Map<Integer, Held> in) {
    long sentAt = ticker.read();
    try {
      LeaseResult r = settings.leases().renew(partitionId(partition), lease.lease(), settings.ttl());
      if (r instanceof LeaseResult.Granted g) {
        long deadline = deadline(sentAt);
        in.put(partition, new Held(g.lease(), deadline));
        remember(partition, g.lease());
        target.extend(partition, deadline);
      } else {
        reporter.warn(name + ": lost the lease of partition " + partition + "; stopping it at once", null);
        in.remove(partition);
        remember(partition, ((LeaseResult.Refused) r).holder());
        target.revoke(partition);
      }
    } catch (RuntimeException ex) {
      if (ticker.read() - lease.deadlineNanos() >= 0) {
        reporter.warn(name + ": could not renew the lease of partition " + partition
            + " before its deadline; stopping it at once", ex);
        in.remove(partition);
        remember(partition, null);
        target.revoke(partition);
      } else {
        reporter.warn(name + ": could not renew the lease of partition " + partition
            + "; it stops at its deadline unless a renewal succeeds", ex);
      }
    }
  }

  /** The ticker reading at which a lease whose request was sent at reading {@code sentAt} stops being surely ours. */
  private long deadline(long sentAt) {
    return sentAt + settings.ttl().toNanos() - settings.safetyMargin().toNanos();
  }

  private LeaseId partitionId(int partition) {
    return partitionIds.with(LeaseId.Role.PARTITION, partition);
  }

  private LeaseId memberId(int index) {
    return partitionIds.with(LeaseId.Role.MEMBER, memberSlots.get(index));
  }

  private void remember(int partition, @Nullable Lease lease) {
    seen.put(partition, new Seen(partition, lease,
        lease != null && (held.containsKey(partition) || handingOver.containsKey(partition))));
  }

  private void release(int partition, @Nullable Held lease) {
    if (lease == null) {
      return;
    }
    try {
      settings.leases().release(partitionId(partition), lease.lease());
    } catch (RuntimeException e) {
      reporter.warn(name + ": could not release partition " + partition + "; others take it when it expires", e);
    }
    remember(partition, null);
  }

  /**
   * Stops ticking, waiting for a tick in progress; the leases stay held until {@link
   * #releaseAll()}.
   */
  @Override
  public void close() {
    ScheduledFuture<?> t;
    synchronized (this) {
      closed = true;
      t = ticking;
    }
    if (t != null) {
      t.cancel(false); // no interrupt: a tick in progress may be stopping a partition, which must finish cleanly
    }
  }

  /**
   * After the partitions were asked to stop and waited for: gives up every lease whose work ended,
   * so the other members take over at once. Work still running (a call longer than the shutdown
   * timeout) keeps its lease until it expires: it may still save before its deadline, and nobody
   * else may process the partition meanwhile.
   */
  public synchronized void releaseAll() {
    for (Map<Integer, Held> leases : List.of(held, handingOver)) {
      for (int partition : List.copyOf(leases.keySet())) {
        if (target.running(partition)) {
          reporter.warn(name + ": partition " + partition + " is still working; its lease is left to expire", null);
        } else {
          release(partition, leases.get(partition));
        }
        leases.remove(partition);
      }
    }
    Held s = slot;
    if (s != null) {
      try {
        settings.leases().release(memberId(slotIndex), s.lease());
      } catch (RuntimeException e) {
        reporter.warn(name + ": could not release member slot " + slotIndex, e);
      }
      dropSlot();
    }
  }

  @Override
  public String toString() {
    return "PartitionSharing[" + name + ", " + settings.owner() + "]";
  }
}
