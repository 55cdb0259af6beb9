package dev.objlog.spring.listener;

import dev.objlog.spring.listener.checkpoint.Lease;
import dev.objlog.spring.listener.checkpoint.LeaseKey;
import dev.objlog.spring.listener.checkpoint.LeaseRepository;
import dev.objlog.spring.listener.checkpoint.LeaseResult;
import dev.objlog.spring.listener.checkpoint.RepositoryWriterLeaseStore;
import dev.objlog.store.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * One container's membership in a consumer group: which of the assigned partitions it may consume,
 * decided through leases (docs/LISTENERS.md, "Groups").
 *
 * <p>The scheme. Every member holds a <em>member slot</em>: the lease {@code <group>#members} on one
 * of slots {@code 0..P-1} (P: the assigned partitions), so the live members are the valid slot
 * leases. On every tick (each renew interval) a member renews its slot and its partition leases,
 * counts the members M, and aims at {@code ceil(P / M)} partitions: above that it stops its
 * highest partitions (saving their checkpoints) and releases them; below it takes free partitions
 * (never held, released, or expired), lowest first. A member that joins is seen on the others' next
 * tick; a dead member's partitions are free once its leases expire.
 *
 * <p>Safety: a partition runs only until its <em>deadline</em>: the reading of the local {@link
 * Ticker} (elapsed time, not the wall clock) at which its last successful acquire or renewal was
 * sent, plus the ttl, minus the safety margin. The lease expiry the repository stores stays wall
 * time, since other instances read it; the local deadline must not move when this machine's wall
 * clock is stepped: stepped back, it would keep a partition another member may already own.
 * Measured from the sending of the request, it ends no later than the store's expiry. The consumer
 * checks it before every delivery and checkpoint save, so a member that cannot renew (storage
 * unreachable, lease taken) stops the partition at least {@code safety margin} before any other
 * member can take it, without waiting for this thread.
 *
 * <p>Thread-safety: {@link #tick()} runs on this member's scheduler thread; {@link #close()} and
 * the status getters may be called from any thread.
 */
final class GroupMember implements AutoCloseable {
  private static final Log logger = LogFactory.getLog(GroupMember.class);

  /** Appended to the group name for the member slots' leases. */
  static final String MEMBERS_SUFFIX = "#members";

  /** What the member drives: the container's partition consumers. */
  interface Partitions {
    /** Starts consuming {@code partition}, which must stop at ticker reading {@code deadlineNanos}. */
    void start(int partition, long deadlineNanos);

    /** Moves the deadline (a ticker reading) of a running partition after a renewal. */
    void extend(int partition, long deadlineNanos);

    /**
     * Asks {@code partition} to stop after the record in hand, without waiting; {@code
     * saveCheckpoint}: the lease is still valid, save the position first.
     */
    void requestStop(int partition, boolean saveCheckpoint);

    /** Stops {@code partition} at once without saving: its lease is lost. */
    void revoke(int partition);

    /** Whether a consumer thread of {@code partition} is still alive here. */
    boolean running(int partition);

    /** Waits up to {@code millis} for the partition's consumer thread to end. */
    void awaitEnded(int partition, long millis) throws InterruptedException;

    /** Whether the partition's consumer gave the partition up on its own (lost checkpoint race). */
    boolean gaveUp(int partition);
  }

  /** The lease settings of a group listener. */
  record Settings(LeaseRepository leases, String instanceId, Duration ttl, Duration renewInterval,
      Duration safetyMargin) {
    Settings {
      Objects.requireNonNull(leases, "leases");
      Objects.requireNonNull(instanceId, "instanceId");
    }
  }

  private final Settings settings;
  private final String group;
  private final String streamName;
  private final List<Integer> partitions;
  private final Ticker ticker;
  private final Partitions target;
  private final Map<Integer, Lease> held = new ConcurrentSkipListMap<>();
  /**
   * Partitions asked to stop whose consumer thread may still run: their leases stay held and
   * renewed until the thread ended (its last save needs a valid lease), then are released.
   */
  private final Map<Integer, Lease> handingOver = new ConcurrentSkipListMap<>();
  private final Map<Integer, ObjlogListenerContainer.PartitionLease> known = new ConcurrentSkipListMap<>();
  private final ScheduledExecutorService scheduler;
  private @Nullable Lease slot;
  private int slotIndex = -1;
  private volatile int members = 1;

  GroupMember(Settings settings, String group, String streamName, List<Integer> partitions, Ticker ticker,
      Partitions target, String threadName) {
    this.settings = settings;
    this.group = group;
    this.streamName = streamName;
    this.partitions = List.copyOf(partitions);
    this.ticker = ticker;
    this.target = target;
    this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, threadName);
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Checks the settings of a group listener.
   *
   * @throws IllegalArgumentException saying which property to change
   */
  static void check(String listenerId, String group, Duration ttl, Duration renewInterval, Duration safetyMargin) {
    if (group.length() + MEMBERS_SUFFIX.length() > 255) {
      throw new IllegalArgumentException("listener " + listenerId + ": group must be at most "
          + (255 - MEMBERS_SUFFIX.length()) + " characters");
    }
    if (group.endsWith(MEMBERS_SUFFIX)) {
      throw new IllegalArgumentException("listener " + listenerId + ": group must not end with " + MEMBERS_SUFFIX
          + " (reserved for member slots)");
    }
    if (group.equals(RepositoryWriterLeaseStore.PARTITION_GROUP) || group.equals(RepositoryWriterLeaseStore.MEMBER_GROUP)) {
      throw new IllegalArgumentException("listener " + listenerId + ": group " + group
          + " is reserved for ObjlogTemplate's writer leases; choose another group name");
    }
    if (ttl.isNegative() || safetyMargin.isNegative() || renewInterval.isNegative() || renewInterval.isZero()
        || renewInterval.compareTo(ttl.minus(safetyMargin)) >= 0) {
      throw new IllegalArgumentException("listener " + listenerId + ": objlog.listener.group.renew-interval ("
          + renewInterval + ") must be positive and shorter than lease-ttl (" + ttl + ") minus safety-margin ("
          + safetyMargin + "); a third of that difference or less survives one failed renewal");
    }
  }

  /** Ticks now and then every renew interval. */
  void start() {
    long interval = settings.renewInterval().toMillis();
    scheduler.scheduleWithFixedDelay(this::safeTick, 0, Math.max(1, interval), TimeUnit.MILLISECONDS);
  }

  /** The number of live members seen on the last tick (this one included). */
  int members() {
    return members;
  }

  /** The partitions this member holds now. */
  List<Integer> heldPartitions() {
    return List.copyOf(held.keySet());
  }

  List<ObjlogListenerContainer.PartitionLease> leaseStatuses() {
    return List.copyOf(known.values());
  }

  private void safeTick() {
    try {
      tick();
    } catch (RuntimeException e) {
      logger.warn("Group " + group + " on " + streamName + ": lease tick failed; retrying in "
          + settings.renewInterval(), e);
    }
  }

  /** Renews, counts the members, sheds or takes partitions. */
  synchronized void tick() {
    // Partition renewals first: a failing membership read must not cost the running partitions.
    renewPartitions();
    renewSlot();
    int p = partitions.size();
    int cap = (p + members - 1) / members;
    List<Integer> mine = new ArrayList<>(held.keySet());
    List<Integer> shed = new ArrayList<>();
    for (int i = mine.size() - 1; i >= 0 && held.size() > cap; i--) {
      int partition = mine.get(i);
      logger.info("Group " + group + " on " + streamName + ": " + members + " members, handing over partition "
          + partition);
      handingOver.put(partition, held.remove(partition));
      target.requestStop(partition, true);
      shed.add(partition);
    }
    awaitHandOvers(shed);
    finishHandOvers();
    for (int partition : partitions) {
      if (held.containsKey(partition) || handingOver.containsKey(partition) || target.running(partition)) {
        continue; // a thread of ours still runs it: never start a second one
      }
      LeaseKey key = LeaseKey.of(group, streamName, partition);
      Optional<Lease> current = settings.leases().current(key);
      // A lease of ours we no longer track (a consumer gave it up while the store was unreachable) is taken again.
      boolean othersHold = current.isPresent() && !current.get().owner().equals(settings.instanceId());
      if (othersHold || held.size() >= cap) {
        remember(partition, current.orElse(null));
        continue;
      }
      long sentAt = ticker.read();
      LeaseResult result = settings.leases().tryAcquire(key, settings.instanceId(), settings.ttl());
      if (result instanceof LeaseResult.Granted g) {
        held.put(partition, g.lease());
        remember(partition, g.lease());
        logger.info("Group " + group + " on " + streamName + ": took partition " + partition + " (epoch "
            + g.lease().epoch() + ")");
        target.start(partition, deadline(sentAt));
      } else {
        remember(partition, ((LeaseResult.Refused) result).holder());
      }
    }
  }

  /**
   * Gives shed partitions a short while to finish the record in hand, so that the usual hand-over
   * completes in this tick; a slow listener keeps its lease (renewed) until it is done instead of
   * holding up the renewals of the other partitions.
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

  /** Releases the leases of handed-over partitions whose consumer thread ended. */
  private void finishHandOvers() {
    for (int partition : List.copyOf(handingOver.keySet())) {
      if (!target.running(partition)) {
        release(partition, handingOver.remove(partition));
      }
    }
  }

  private void renewSlot() {
    LeaseKey slotKey = slotKey(Math.max(slotIndex, 0));
    Lease s = slot;
    if (s != null) {
      try {
        LeaseResult r = settings.leases().renew(slotKey, s, settings.ttl());
        slot = r.grantedLease().orElse(null);
      } catch (RuntimeException e) {
        logger.warn("Group " + group + " on " + streamName + ": could not renew the member slot", e);
      }
    }
    int live = 0;
    for (int i = 0; i < partitions.size(); i++) {
      LeaseKey key = slotKey(i);
      if (slot != null && i == slotIndex) {
        live++;
        continue;
      }
      Optional<Lease> current = settings.leases().current(key);
      if (current.isPresent() && !current.get().owner().equals(settings.instanceId())) {
        live++;
      } else if (slot == null) {
        Optional<Lease> mine = settings.leases().tryAcquire(key, settings.instanceId(), settings.ttl()).grantedLease();
        if (mine.isPresent()) {
          slot = mine.get();
          slotIndex = i;
        }
        live++; // this member's new slot, or the one of a member that won the race for it
      }
    }
    // Without a slot (more members than partitions) this member still counts itself.
    members = Math.max(1, slot == null ? live + 1 : live);
  }

  private void renewPartitions() {
    for (Map.Entry<Integer, Lease> e : List.copyOf(held.entrySet())) {
      int partition = e.getKey();
      if (target.gaveUp(partition)) {
        // It stopped itself (checkpoint race or deadline): release once its thread ended.
        handingOver.put(partition, held.remove(partition));
        target.requestStop(partition, false);
        continue;
      }
      renew(partition, e.getValue(), held);
    }
    finishHandOvers(); // a lease whose consumer ended is released, not renewed once more first
    for (Map.Entry<Integer, Lease> e : List.copyOf(handingOver.entrySet())) {
      renew(e.getKey(), e.getValue(), handingOver);
    }
  }

  private void renew(int partition, Lease lease, Map<Integer, Lease> in) {
    long sentAt = ticker.read();
    try {
      LeaseResult r = settings.leases().renew(LeaseKey.of(group, streamName, partition), lease, settings.ttl());
      if (r instanceof LeaseResult.Granted g) {
        in.put(partition, g.lease());
        remember(partition, g.lease());
        target.extend(partition, deadline(sentAt));
      } else {
        logger.warn("Group " + group + " on " + streamName + ": lost the lease of partition " + partition
            + "; stopping it without a checkpoint");
        in.remove(partition);
        remember(partition, ((LeaseResult.Refused) r).holder());
        target.revoke(partition);
      }
    } catch (RuntimeException ex) {
      // The consumer stops by itself at its deadline; keep trying until then.
      logger.warn("Group " + group + " on " + streamName + ": could not renew the lease of partition "
          + partition + "; it stops at its deadline unless a renewal succeeds", ex);
    }
  }

  /** The ticker reading at which a lease whose request was sent at reading {@code sentAt} stops being surely ours. */
  private long deadline(long sentAt) {
    return sentAt + settings.ttl().toNanos() - settings.safetyMargin().toNanos();
  }

  private LeaseKey slotKey(int index) {
    return LeaseKey.of(group + MEMBERS_SUFFIX, streamName, partitions.get(index));
  }

  private void remember(int partition, @Nullable Lease lease) {
    known.put(partition, new ObjlogListenerContainer.PartitionLease(partition, lease == null ? null : lease.owner(),
        lease == null ? null : lease.until(), lease != null && (held.containsKey(partition) || handingOver.containsKey(partition))));
  }

  private void release(int partition, @Nullable Lease lease) {
    if (lease == null) {
      return;
    }
    try {
      settings.leases().release(LeaseKey.of(group, streamName, partition), lease);
    } catch (RuntimeException e) {
      logger.warn("Group " + group + " on " + streamName + ": could not release partition " + partition
          + "; others take it when it expires", e);
    }
    remember(partition, null);
  }

  /** Stops ticking (waiting for a tick in progress); the leases stay held until {@link #releaseAll()}. */
  @Override
  public void close() {
    // No interrupt: a tick in progress may be stopping a partition, which must finish its save.
    scheduler.shutdown();
    try {
      scheduler.awaitTermination(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * After the partitions were asked to stop and waited for: gives up every lease whose consumer
   * thread ended, so the other members take over at once. A thread still running (a listener call
   * longer than the shutdown timeout) keeps its lease until it expires: it may still save before
   * its deadline, and nobody else may process the partition meanwhile.
   */
  synchronized void releaseAll() {
    for (Map<Integer, Lease> leases : List.of(held, handingOver)) {
      for (int partition : List.copyOf(leases.keySet())) {
        if (target.running(partition)) {
          logger.warn("Group " + group + " on " + streamName + ": partition " + partition
              + " is still in a listener call; its lease is left to expire");
        } else {
          release(partition, leases.get(partition));
        }
        leases.remove(partition);
      }
    }
    Lease s = slot;
    if (s != null) {
      try {
        settings.leases().release(slotKey(slotIndex), s);
      } catch (RuntimeException e) {
        logger.warn("Group " + group + " on " + streamName + ": could not release the member slot", e);
      }
      slot = null;
    }
  }
}
