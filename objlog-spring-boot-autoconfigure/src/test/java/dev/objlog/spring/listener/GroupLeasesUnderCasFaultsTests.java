package dev.objlog.spring.listener;

import dev.objlog.coordination.PartitionSharing;
import dev.objlog.spring.coordination.LoggingReporter;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.read.CursorCheckpoint;
import dev.objlog.spring.listener.checkpoint.BucketCheckpointRepository;
import dev.objlog.spring.listener.checkpoint.CatalogLocator;
import dev.objlog.spring.listener.checkpoint.CheckpointConflictException;
import dev.objlog.spring.listener.checkpoint.CheckpointKey;
import dev.objlog.spring.listener.checkpoint.CheckpointVersion;
import dev.objlog.spring.listener.checkpoint.MutableClock;
import dev.objlog.testing.ForwardingObjectStore;
import dev.objlog.testing.MutableTicker;
import dev.objlog.spring.listener.checkpoint.RetryingStore;
import dev.objlog.spring.listener.checkpoint.StoredCheckpoint;
import dev.objlog.store.CasResult;
import dev.objlog.store.ConditionalGetResult;
import dev.objlog.store.CreateResult;
import dev.objlog.store.ListPage;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.Retrier;
import dev.objlog.store.RetryPolicy;
import dev.objlog.store.StoredObject;
import dev.objlog.store.VersionToken;
import dev.objlog.store.fault.FaultInjectingObjectStore;
import dev.objlog.store.fault.FaultInjectingObjectStore.Fault;
import dev.objlog.store.fault.FaultInjectingObjectStore.Operation;
import dev.objlog.store.memory.MemoryObjectStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Listener groups and bucket checkpoints when the compare-and-swap of leases and checkpoints loses
 * its reply or times out (issue #13). Deterministic: one thread, lease time on a {@link
 * MutableClock}, and a {@link FaultInjectingObjectStore} seeded per run that answers {@code
 * LOST_REPLY} and {@code TIMEOUT} (performed or not, by a seeded coin) on compare-and-swaps. Three
 * {@link PartitionSharing} members share four partitions through {@link BucketCheckpointRepository} leases;
 * their ticks are called directly, in a seeded order, with seeded clock steps between them, and a
 * member's thread may stall (no ticks for a while, its consumers running on) or die and come back as a new
 * instance. Each member drives fake partition consumers that behave like the container's: they
 * deliver and save checkpoints only before their lease deadline, give a partition up on a checkpoint
 * conflict or an ambiguous save, and save on a hand-over only while the lease is valid.
 *
 * <p>Half of the seeds put the engine's {@link Retrier} (the adapters' retry loop) between the
 * repositories and the faults, so a lost reply is retried as a real adapter would retry it.
 *
 * <p>After every step: at most one member runs a partition with an unexpired deadline (one owner
 * at any instant); the stored checkpoint of every partition never goes backwards; a save that
 * returned is what the bucket holds. At the end, with the faults off, every partition is owned by
 * exactly one member and moves forward (a seed that does nothing fails).
 *
 * <p>Seeds: {@code OBJLOG_GROUP_FAULT_SEEDS} (150 under CI=true, 40 otherwise), 250 steps each.
 */
class GroupLeasesUnderCasFaultsTests {
  static final String SEEDS = "OBJLOG_GROUP_FAULT_SEEDS";
  private static final int PARTITIONS = 4;
  private static final int MEMBERS = 3;
  private static final int STEPS = 250;
  private static final Duration TTL = Duration.ofSeconds(30);
  private static final Duration RENEW = Duration.ofSeconds(5);
  private static final Duration MARGIN = Duration.ofSeconds(10);
  private static final String GROUP = "g";
  private static final String STREAM = "orders";
  private static final String STREAM_ID = "faults/orders";
  private static final CatalogLocator LOCATOR = CatalogLocator.of("objlog", name -> STREAM_ID);

  /** The members log every failed renewal with its stack trace: thousands per run. */
  private static <T extends Throwable> void quietly(ThrowingRunnable<T> body) throws T {
    ch.qos.logback.classic.Logger logger =
        (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(LoggingReporter.LOGGER);
    ch.qos.logback.classic.Level before = logger.getLevel();
    logger.setLevel(ch.qos.logback.classic.Level.OFF);
    try {
      body.run();
    } finally {
      logger.setLevel(before);
    }
  }

  interface ThrowingRunnable<T extends Throwable> {
    void run() throws T;
  }

  @Test
  void oneOwnerPerPartitionAndNoCheckpointRegressionUnderLostRepliesAndTimeouts() {
    quietly(this::allSeeds);
  }

  private void allSeeds() {
    int seeds = seeds();
    Totals totals = new Totals();
    for (long seed = 1; seed <= seeds; seed++) {
      new Run(seed, false).run(totals);
    }
    System.out.printf(Locale.ROOT, "group CAS faults: %d seeds x %d steps: %s%n", seeds, STEPS, totals);
    assertThat(totals.injected).as("faults were injected").isPositive();
    assertThat(totals.ambiguousSaves).as("some checkpoint saves ended ambiguous").isPositive();
    assertThat(totals.takeovers).as("partitions changed owner").isPositive();
    assertThat(totals.interleavings).as("members acted inside each other's compare-and-swaps").isPositive();
  }

  /** The oracle must catch a store whose compare-and-swap is not atomic (conditions ignored). */
  @Test
  void theOracleCatchesAStoreThatIgnoresConditions() {
    assertThatThrownBy(() -> quietly(() -> {
      for (long seed = 1; seed <= 40; seed++) {
        new Run(seed, true).run(new Totals());
      }
    })).isInstanceOf(AssertionError.class)
        .hasMessageMatching("(?s).*(owner|backwards|holds).*");
  }

  static int seeds() {
    return dev.objlog.testing.Ci.suiteSize(SEEDS, 150, 40);
  }

  /** Counts over all seeds, for the report. */
  static final class Totals {
    long ticks;
    long injected;
    long ambiguousSaves;
    long conflicts;
    long saves;
    long takeovers;
    long stalls;
    long deaths;
    long interleavings;

    @Override
    public String toString() {
      return ticks + " ticks, " + injected + " injected faults, " + saves + " saves (" + ambiguousSaves
          + " ambiguous, " + conflicts + " conflicts), " + takeovers + " partition starts, " + stalls
          + " stalls, " + deaths + " member deaths, " + interleavings + " actions inside another's compare-and-swap";
    }
  }

  /** One seed. */
  private static final class Run {
    final long seed;
    final SplittableRandom random;
    final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    /** Elapsed time, on which lease deadlines run; it moves with the wall clock here (no clock steps). */
    final MutableTicker ticker = new MutableTicker();
    final MemoryObjectStore memory = new MemoryObjectStore();
    final FaultInjectingObjectStore faulty;
    final Switch store;
    final BucketCheckpointRepository truth;
    final List<Member> members = new ArrayList<>();
    final Map<Integer, Long> highestStored = new HashMap<>();
    final List<String> trace = new ArrayList<>();
    int generation;
    Totals totals;
    /** Whose request is running (ticks and deliveries nest inside a store call, one level deep). */
    Member acting;
    boolean interleaving;

    Run(long seed, boolean dropConditions) {
      this.seed = seed;
      this.random = new SplittableRandom(seed);
      double lost = 0.05 + random.nextDouble() * 0.15;
      double timeout = 0.05 + random.nextDouble() * 0.15;
      faulty = FaultInjectingObjectStore.builder(memory).seed(seed).clock(clock).timeout(Duration.ZERO)
          .faultProbability(Operation.COMPARE_AND_SWAP, Fault.LOST_REPLY, lost)
          .faultProbability(Operation.COMPARE_AND_SWAP, Fault.TIMEOUT, timeout)
          .dropConditions(dropConditions)
          .build();
      ObjectStore faces = new Interleaving(faulty);
      if (seed % 2 == 0) {
        // The adapters' retry loop; its backoff is time passing for the leases.
        Retrier retrier = new Retrier(new RetryPolicy(3, Duration.ofMillis(200), Duration.ofSeconds(2), 0.5,
            Duration.ofSeconds(5)), this::pass, new SplittableRandom(seed * 31 + 7));
        faces = new RetryingStore(faulty, retrier);
      }
      store = new Switch(faces);
      truth = new BucketCheckpointRepository(memory, LOCATOR, clock);
    }

    void run(Totals totals) {
      this.totals = totals;
      for (int i = 0; i < MEMBERS; i++) {
        members.add(new Member("m" + i + "-" + generation++));
      }
      try {
        for (int step = 0; step < STEPS; step++) {
          int action = random.nextInt(100);
          if (action < 45) {
            tick(members.get(random.nextInt(members.size())));
          } else if (action < 75) {
            for (Member m : members) {
              deliver(m);
            }
          } else if (action < 93) {
            Duration d = Duration.ofMillis(random.nextLong(RENEW.toMillis() * 3));
            pass(d);
            trace.add("clock +" + d.toMillis() + "ms");
          } else if (action < 97) {
            Member m = members.get(random.nextInt(members.size()));
            m.stalledUntil = clock.millis() + random.nextLong(TTL.toMillis() * 2);
            totals.stalls++;
            trace.add(m.id + " stalls until " + m.stalledUntil);
          } else {
            int i = random.nextInt(members.size());
            Member dead = members.get(i);
            dead.close();
            members.set(i, new Member("m" + i + "-" + generation++));
            totals.deaths++;
            trace.add(dead.id + " dies; " + members.get(i).id + " starts");
          }
          check("step " + step);
        }
        // The faults stop: the group settles and every partition moves forward.
        store.target = memory;
        Map<Integer, Long> before = new TreeMap<>(highestStored);
        for (int round = 0; round < 12; round++) {
          pass(RENEW);
          for (Member m : members) {
            m.stalledUntil = 0;
            tick(m);
          }
          for (Member m : members) {
            deliver(m);
          }
          check("settling round " + round);
        }
        for (int p = 0; p < PARTITIONS; p++) {
          int partition = p;
          long owners = members.stream().filter(m -> m.consumers.owns(partition)).count();
          assertThat(owners).as("seed %d: partition %d has exactly one owner once the faults stop; %s", seed, p,
              tail()).isEqualTo(1);
          assertThat(highestStored.getOrDefault(p, 0L)).as("seed %d: partition %d moves forward once the faults stop",
              seed, p).isGreaterThan(before.getOrDefault(p, 0L));
        }
        totals.injected += faulty.injectedFaults().size();
      } finally {
        members.forEach(Member::close);
      }
    }

    void tick(Member m) {
      if (clock.millis() < m.stalledUntil) {
        return;
      }
      totals.ticks++;
      Member outer = acting;
      acting = m;
      try {
        m.member.tick();
        trace.add(m.id + " tick: holds " + m.consumers.running.keySet());
      } catch (RuntimeException e) {
        // As the member's scheduler does (safeTick): the next tick tries again.
        trace.add(m.id + " tick failed: " + e);
      } finally {
        acting = outer;
      }
    }

    void deliver(Member m) {
      Member outer = acting;
      acting = m;
      try {
        m.consumers.deliver();
      } finally {
        acting = outer;
      }
    }

    /**
     * Called before a compare-and-swap reaches the store: sometimes another member acts first and
     * time passes, as when the request is slow on the wire. This is what makes reads and writes of
     * different members interleave on one thread.
     */
    void beforeCompareAndSwap() {
      if (interleaving || acting == null || random.nextInt(100) >= 20) {
        return;
      }
      List<Member> others = members.stream().filter(m -> m != acting).toList();
      if (others.isEmpty()) {
        return;
      }
      interleaving = true;
      try {
        pass(Duration.ofMillis(random.nextLong(TTL.toMillis() / 2)));
        Member other = others.get(random.nextInt(others.size()));
        trace.add("while " + acting.id + " swaps: " + other.id + " acts");
        if (random.nextBoolean()) {
          tick(other);
        } else {
          deliver(other);
        }
        check("inside a compare-and-swap of " + acting.id);
        totals.interleavings++;
      } finally {
        interleaving = false;
      }
    }

    /** Time passes: wall clock and elapsed time together. */
    void pass(Duration d) {
      clock.advance(d);
      ticker.advance(d);
    }

    /** The invariants, after every step. */
    void check(String when) {
      long now = ticker.read();
      for (int p = 0; p < PARTITIONS; p++) {
        List<String> owners = new ArrayList<>();
        for (Member m : members) {
          Consumer c = m.consumers.running.get(p);
          if (c != null && now < c.deadline) {
            owners.add(m.id + " until " + c.deadline);
          }
        }
        assertThat(owners).as("seed %d, %s at %d: one owner of partition %d at a time; %s", seed, when, now, p, tail())
            .hasSizeLessThanOrEqualTo(1);
        Optional<StoredCheckpoint> stored = truth.load(key(p));
        long next = stored.map(s -> s.checkpoint().nextLsn()).orElse(0L);
        long highest = highestStored.getOrDefault(p, 0L);
        assertThat(next).as("seed %d, %s: the checkpoint of partition %d never goes backwards (was %d); %s", seed,
            when, p, highest, tail()).isGreaterThanOrEqualTo(highest);
        highestStored.put(p, next);
      }
    }

    String tail() {
      return String.join("\n  ", trace.subList(Math.max(0, trace.size() - 30), trace.size()));
    }

    static CheckpointKey key(int partition) {
      return CheckpointKey.of(GROUP, STREAM, partition);
    }

    /** Lets another member act before each compare-and-swap reaches the store. */
    final class Interleaving extends ForwardingObjectStore {
      Interleaving(ObjectStore target) {
        super(target);
      }

      @Override
      public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) {
        beforeCompareAndSwap();
        return delegate.compareAndSwap(key, expected, bytes);
      }

      @Override public String describe() { return "interleaving(" + delegate.describe() + ")"; }
    }

    /** One instance: a group member and its partition consumers. */
    final class Member implements AutoCloseable {
      final String id;
      final BucketCheckpointRepository repository;
      final Consumers consumers;
      final PartitionSharing member;
      long stalledUntil;

      Member(String id) {
        this.id = id;
        this.repository = new BucketCheckpointRepository(store, LOCATOR, clock);
        this.consumers = new Consumers(this);
        this.member = new PartitionSharing(new PartitionSharing.Settings(repository.leaseStore(), id, TTL, RENEW,
            MARGIN), GROUP, STREAM, List.of(0, 1, 2, 3), List.of(0, 1, 2, 3), ticker, consumers, LoggingReporter.INSTANCE);
      }

      @Override
      public void close() {
        // A dead process consumes nothing; its leases expire on their own.
        consumers.running.clear();
        member.close();
      }
    }

    /** A partition consumer, as the container runs it. */
    final class Consumer {
      final int partition;
      long deadline;
      long processed;
      CheckpointVersion version = CheckpointVersion.ABSENT;
      boolean gaveUp;

      Consumer(int partition, long deadline) {
        this.partition = partition;
        this.deadline = deadline;
      }
    }

    /** The container's side of the member: consumers that obey their deadline. */
    final class Consumers implements PartitionSharing.Partitions {
      final Member owner;
      final Map<Integer, Consumer> running = new TreeMap<>();

      Consumers(Member owner) {
        this.owner = owner;
      }

      boolean owns(int partition) {
        Consumer c = running.get(partition);
        return c != null && !c.gaveUp && ticker.read() < c.deadline;
      }

      @Override
      public void start(int partition, long deadlineNanos) {
        assertThat(running).as("seed %d: %s starts partition %d twice", seed, owner.id, partition)
            .doesNotContainKey(partition);
        Consumer c = new Consumer(partition, deadlineNanos);
        Optional<StoredCheckpoint> stored = owner.repository.load(key(partition));
        c.processed = stored.map(s -> s.checkpoint().nextLsn()).orElse(0L);
        c.version = stored.map(StoredCheckpoint::version).orElse(CheckpointVersion.ABSENT);
        running.put(partition, c);
        totals.takeovers++;
        trace.add(owner.id + " starts " + partition + " at " + c.processed + " until " + deadlineNanos);
      }

      @Override
      public void extend(int partition, long deadlineNanos) {
        Consumer c = running.get(partition);
        if (c != null) {
          c.deadline = deadlineNanos;
        }
      }

      @Override
      public void requestStop(int partition, boolean saveCheckpoint) {
        Consumer c = running.remove(partition);
        if (c != null && saveCheckpoint && !c.gaveUp && ticker.read() < c.deadline) {
          save(c);
        }
        trace.add(owner.id + " stops " + partition);
      }

      @Override
      public void revoke(int partition) {
        running.remove(partition);
        trace.add(owner.id + " revoked " + partition);
      }

      @Override
      public boolean running(int partition) {
        return running.containsKey(partition);
      }

      @Override
      public void awaitEnded(int partition, long millis) {
        // Consumers here end as soon as they are asked to.
      }

      @Override
      public boolean gaveUp(int partition) {
        Consumer c = running.get(partition);
        return c != null && c.gaveUp;
      }

      /**
       * Every live consumer delivers 1..3 records and saves (RECORD-like), before its deadline only;
       * also while its member's thread stalls, which is what the deadline is for.
       */
      void deliver() {
        for (Consumer c : running.values()) {
          if (c.gaveUp) {
            continue;
          }
          if (ticker.read() >= c.deadline) {
            c.gaveUp = true; // LeaseDeadlinePassed: stop without saving
            continue;
          }
          c.processed += 1 + random.nextInt(3);
          save(c);
        }
      }

      void save(Consumer c) {
        totals.saves++;
        long savedAt = clock.millis();
        try {
          c.version = owner.repository.save(key(c.partition), CursorCheckpoint.of(STREAM_ID, c.partition, c.processed),
              c.version);
          long stored = truth.load(key(c.partition)).orElseThrow().checkpoint().nextLsn();
          assertThat(stored).as("seed %d: a save that returned is what the bucket holds (%s, partition %d); %s", seed,
              owner.id, c.partition, tail()).isEqualTo(c.processed);
          trace.add(owner.id + " saved " + c.partition + " at " + c.processed);
        } catch (CheckpointConflictException e) {
          totals.conflicts++;
          c.gaveUp = true;
          // The stored form carries the save's time: the same position at the same instant is
          // our own save, reported as lost.
          Optional<StoredCheckpoint> stored = truth.load(key(c.partition));
          boolean ours = stored.isPresent() && stored.get().checkpoint().nextLsn() == c.processed
              && stored.get().updatedAt().toEpochMilli() == savedAt;
          assertThat(ours).as("seed %d: %s's save of partition %d at %d landed but was reported as a conflict; %s",
              seed, owner.id, c.partition, c.processed, tail()).isFalse();
          trace.add(owner.id + " conflict on " + c.partition + ": " + e.getMessage());
        } catch (RuntimeException e) {
          // The container fails the partition on an unexpected save error; in a group it is handed back.
          totals.ambiguousSaves++;
          c.gaveUp = true;
          trace.add(owner.id + " save of " + c.partition + " failed: " + e);
        }
      }
    }
  }

  /** Sends requests to a store the run can swap (faulty, then fault-free). */
  static final class Switch implements ObjectStore {
    volatile ObjectStore target;

    Switch(ObjectStore target) {
      this.target = target;
    }

    @Override public StoredObject get(String key) { return target.get(key); }
    @Override public byte[] getRange(String key, long offset, int length) { return target.getRange(key, offset, length); }
    @Override public Optional<ObjectMetadata> head(String key) { return target.head(key); }
    @Override public ConditionalGetResult getIfChanged(String key, VersionToken known) { return target.getIfChanged(key, known); }
    @Override public CreateResult putIfAbsent(String key, byte[] bytes) { return target.putIfAbsent(key, bytes); }
    @Override public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) { return target.compareAndSwap(key, expected, bytes); }
    @Override public ObjectUpload startUpload(String key) { return target.startUpload(key); }
    @Override public ListPage list(String prefix, String afterKey, int limit) { return target.list(prefix, afterKey, limit); }
    @Override public void delete(Collection<String> keys) { target.delete(keys); }
    @Override public String describe() { return "switch(" + target.describe() + ")"; }
  }
}
