package dev.objlog.spring.coordination;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.coordination.Lease;
import dev.objlog.coordination.LeaseId;
import dev.objlog.coordination.LeaseResult;
import dev.objlog.coordination.LeaseStore;
import dev.objlog.coordination.PartitionSharing;
import dev.objlog.coordination.PreviousReleaseLeases;
import dev.objlog.testing.MutableClock;
import dev.objlog.testing.MutableTicker;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;

/**
 * One seeded run of a group sharing {@code P} partitions among up to {@code M} members on virtual
 * time: one thread, wall clock and ticker moved together by the run, members joining, leaving
 * (gracefully), crashing (gone at once, leases left to expire) and stalling (no ticks, work running
 * on until its deadline), work that outlives a hand-over by a few steps, and a store that fails
 * as the caller arranges (lost replies, timeouts). Members are of this release ({@link
 * PartitionSharing}) or, for rolling deploys, of the previous one ({@link PreviousReleaseMember}).
 *
 * <p>The oracle, before every lease store call and after every step: no partition has two members
 * whose work runs it with an unexpired deadline. After the churn, with the faults off and every
 * member ticking each renew interval: every partition has exactly one owner, and the members'
 * shares differ by at most one.
 */
final class SharingSimulation {
  static final Duration TTL = Duration.ofSeconds(30);
  static final Duration RENEW = Duration.ofSeconds(5);
  static final Duration MARGIN = Duration.ofSeconds(10);
  static final String GROUP = "g";
  static final String STREAM = "orders";
  /** Enough renew intervals for a crashed member's slot to expire and the shares to settle. */
  private static final int SETTLING_ROUNDS = 16;

  /** The kind of member a join starts. */
  enum Release { PREVIOUS, CURRENT }

  final long seed;
  final int partitions;
  final int maxMembers;
  final SplittableRandom random;
  final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  final MutableTicker ticker = new MutableTicker(Long.MAX_VALUE - Duration.ofMinutes(5).toNanos());
  final LeaseStore leases;
  /** Whether this run shares as a consumer group (else as the writers of the stream). */
  final boolean consumerGroup;
  final List<Member> members = new ArrayList<>();
  final List<String> trace = new ArrayList<>();
  Release joining = Release.CURRENT;
  /**
   * For rolling deploys: how the store lays leases out; members of this release then hold the
   * previous release's leases too ({@link PreviousReleaseLeases}). Null: no previous release.
   */
  PreviousReleaseLeases.@Nullable Layout previousRelease;
  /** Faults the store should inject now; the run turns them off to settle. */
  volatile boolean faults = true;
  int generation;
  long checks;
  long starts;

  /**
   * A run.
   *
   * @param leases opens the store a member uses, given the run (whose clock and {@link #checkNow}
   *     the store is to use)
   */
  SharingSimulation(long seed, int partitions, int maxMembers, Function<SharingSimulation, LeaseStore> leases) {
    this(seed, partitions, maxMembers, seed % 2 == 0, leases);
  }

  /** A run as a consumer group ({@code consumerGroup}) or as the writers of the stream. */
  SharingSimulation(long seed, int partitions, int maxMembers, boolean consumerGroup,
      Function<SharingSimulation, LeaseStore> leases) {
    this.seed = seed;
    this.partitions = partitions;
    this.maxMembers = maxMembers;
    this.random = new SplittableRandom(seed);
    this.consumerGroup = consumerGroup;
    this.leases = new Checked(leases.apply(this));
  }

  /** Churns for {@code steps}, then settles and checks the quiet group. */
  void run(int steps) {
    try {
      churn(steps);
      settle();
    } finally {
      stopAll();
    }
  }

  /** A first member joins, then {@code steps} of joins, leaves, crashes, stalls, ticks and time. */
  void churn(int steps) {
    join();
    for (int step = 0; step < steps; step++) {
      step();
      check("step " + step);
    }
  }

  /** Ends the run: every member's process is gone. */
  void stopAll() {
    for (Member m : members) {
      m.crash();
    }
  }

  /** Replaces every member by one of {@code release}, one at a time, churning in between. */
  void replaceAll(Release release, int stepsBetween) {
    joining = release;
    for (int i = 0; i < members.size(); i++) {
      Member old = members.get(i);
      if (old.release == release) {
        continue;
      }
      if (random.nextBoolean()) {
        old.leave();
        trace.add(old.id + " leaves (deploy)");
      } else {
        old.crash();
        trace.add(old.id + " crashes (deploy)");
      }
      Member next = newMember();
      members.set(i, next);
      trace.add(next.id + " joins (deploy)");
      for (int s = 0; s < stepsBetween; s++) {
        ordinaryStep();
        check("deploying, member " + i);
      }
    }
  }

  void join() {
    Member m = newMember();
    members.add(m);
    trace.add(m.id + " joins");
  }

  private Member newMember() {
    String id = (joining == Release.CURRENT ? "n" : "p") + generation++;
    return new Member(id, joining);
  }

  private void step() {
    int action = random.nextInt(100);
    if (action < 8 && members.size() < maxMembers) {
      join();
    } else if (action < 12 && members.size() > 1) {
      Member m = members.remove(random.nextInt(members.size()));
      m.leave();
      trace.add(m.id + " leaves");
    } else if (action < 16 && members.size() > 1) {
      Member m = members.remove(random.nextInt(members.size()));
      m.crash();
      trace.add(m.id + " crashes");
    } else {
      ordinaryStep();
    }
  }

  /** A tick, time passing, a stall, or lingering work ending. */
  void ordinaryStep() {
    int action = random.nextInt(100);
    if (action < 50) {
      tick(members.get(random.nextInt(members.size())));
    } else if (action < 75) {
      Duration d = Duration.ofMillis(random.nextLong(RENEW.toMillis() * 2));
      pass(d);
      trace.add("time +" + d.toMillis() + "ms");
    } else if (action < 80) {
      Member m = members.get(random.nextInt(members.size()));
      m.stalledUntil = ticker.read() + random.nextLong(TTL.toNanos() * 2);
      trace.add(m.id + " stalls");
    } else {
      for (Member m : members) {
        m.work.endLingering(random);
      }
    }
  }

  void tick(Member m) {
    if (ticker.read() - m.stalledUntil < 0) {
      return;
    }
    try {
      m.tick();
      trace.add(m.id + " tick: works on " + m.work.running.keySet());
    } catch (RuntimeException e) {
      trace.add(m.id + " tick failed: " + e); // as a scheduler's safe tick: the next one tries again
    }
  }

  void pass(Duration d) {
    clock.advance(d);
    ticker.advance(d);
  }

  /**
   * Turns the faults off and lets every member tick each renew interval until the group is quiet:
   * past a lease ttl (every crashed member's leases expired), one owner per partition and shares
   * within one of each other, and still so one round later. Fails when that does not come within
   * {@value #SETTLING_ROUNDS} rounds.
   */
  void settle() {
    faults = false;
    int expired = (int) (TTL.toNanos() / RENEW.toNanos()) + 1;
    boolean settledBefore = false;
    for (int round = 0; round < SETTLING_ROUNDS; round++) {
      pass(RENEW);
      for (Member m : members) {
        m.stalledUntil = ticker.read();
        m.work.endLingering(null);
        tick(m);
      }
      check("settling round " + round);
      boolean settled = round >= expired && quietProblem() == null;
      if (settled && settledBefore) {
        return;
      }
      settledBefore = settled;
    }
    String problem = quietProblem();
    assertThat(problem).as("%s: once the group is quiet; %s", this, tail()).isNull();
  }

  /** What the quiet group gets wrong now (no single owner of a partition, unfair shares), or null. */
  private @Nullable String quietProblem() {
    List<Integer> shares = new ArrayList<>();
    for (Member m : members) {
      shares.add((int) IntStream.range(0, partitions).filter(m.work::owns).count());
    }
    for (int p = 0; p < partitions; p++) {
      int partition = p;
      long owners = members.stream().filter(m -> m.work.owns(partition)).count();
      if (owners != 1) {
        return "partition " + p + " has " + owners + " owners, not exactly one; shares " + shares;
      }
    }
    int max = shares.stream().mapToInt(Integer::intValue).max().orElse(0);
    int min = shares.stream().mapToInt(Integer::intValue).min().orElse(0);
    return max - min <= 1 ? null : "the shares " + shares + " differ by more than one";
  }

  /** Called by the store before each request: the oracle holds at every instant a member acts. */
  void checkNow() {
    check("inside a lease request");
  }

  private void check(String when) {
    checks++;
    long now = ticker.read();
    for (int p = 0; p < partitions; p++) {
      List<String> owners = new ArrayList<>();
      for (Member m : members) {
        Work.Running r = m.work.running.get(p);
        if (r != null && now - r.deadline < 0) {
          owners.add(m.id);
        }
      }
      assertThat(owners).as("%s, %s: never two owners of partition %d at one instant; %s", this, when, p, tail())
          .hasSizeLessThanOrEqualTo(1);
    }
  }

  String tail() {
    return "\n  " + String.join("\n  ", trace.subList(Math.max(0, trace.size() - 40), trace.size()));
  }

  @Override
  public String toString() {
    return "seed " + seed + " (P=" + partitions + ", M<=" + maxMembers + (consumerGroup ? ", group" : ", writers") + ")";
  }

  /** Checks the oracle before every request a member sends. */
  private final class Checked implements LeaseStore {
    final LeaseStore delegate;

    Checked(LeaseStore delegate) {
      this.delegate = delegate;
    }

    @Override
    public LeaseResult tryAcquire(LeaseId id, String owner, Duration ttl) {
      checkNow();
      return delegate.tryAcquire(id, owner, ttl);
    }

    @Override
    public LeaseResult renew(LeaseId id, Lease held, Duration ttl) {
      checkNow();
      return delegate.renew(id, held, ttl);
    }

    @Override
    public boolean release(LeaseId id, Lease held) {
      checkNow();
      return delegate.release(id, held);
    }

    @Override
    public Optional<Lease> current(LeaseId id) {
      checkNow();
      return delegate.current(id);
    }
  }

  /** One instance: its lease logic of either release, and the work it runs. */
  final class Member {
    final String id;
    final Release release;
    final Work work;
    final @Nullable PartitionSharing sharing;
    final @Nullable PreviousReleaseMember previous;
    long stalledUntil = ticker.read();

    Member(String id, Release release) {
      this.id = id;
      this.release = release;
      this.work = new Work(this);
      List<Integer> all = IntStream.range(0, partitions).boxed().toList();
      if (release == Release.CURRENT) {
        LeaseStore mine = previousRelease == null ? leases : new PreviousReleaseLeases(leases, previousRelease);
        PartitionSharing.Settings settings = new PartitionSharing.Settings(mine, id, TTL, RENEW, MARGIN);
        this.sharing = new PartitionSharing(settings, consumerGroup ? GROUP : null, STREAM, all, all, ticker, work,
            PartitionSharing.Reporter.SILENT);
        this.previous = null;
      } else {
        this.sharing = null;
        this.previous = new PreviousReleaseMember(leases, consumerGroup ? GROUP : null,
            previousRelease == PreviousReleaseLeases.Layout.ROWS, STREAM, id, partitions, TTL, MARGIN, ticker, work);
      }
    }

    void tick() {
      if (sharing != null) {
        sharing.tick();
      } else {
        previous.tick();
      }
    }

    /** A graceful stop: no more ticks, the work ends cleanly, the leases are released. */
    void leave() {
      if (sharing != null) {
        sharing.close();
      }
      for (int p : List.copyOf(work.running.keySet())) {
        work.requestStop(p, true);
      }
      work.endLingering(null);
      if (sharing != null) {
        sharing.releaseAll();
      } else {
        previous.releaseAll();
      }
    }

    /** The process is gone: its work stops at once; its leases expire on their own. */
    void crash() {
      if (sharing != null) {
        sharing.close();
      }
      work.running.clear();
    }
  }

  /** The container's (or template's) side: work that obeys its deadline and may outlive a stop request. */
  final class Work implements PartitionSharing.Partitions {
    final class Running {
      long deadline;
      boolean stopping;
      boolean gaveUp;

      Running(long deadline) {
        this.deadline = deadline;
      }
    }

    final Member owner;
    final Map<Integer, Running> running = new TreeMap<>();

    Work(Member owner) {
      this.owner = owner;
    }

    boolean owns(int partition) {
      Running r = running.get(partition);
      return r != null && !r.stopping && !r.gaveUp && ticker.read() - r.deadline < 0;
    }

    @Override
    public void start(int partition, long deadlineNanos) {
      assertThat(running).as("%s: %s starts partition %d twice; %s", SharingSimulation.this, owner.id, partition,
          tail()).doesNotContainKey(partition);
      running.put(partition, new Running(deadlineNanos));
      starts++;
      trace.add(owner.id + " starts " + partition);
    }

    @Override
    public void extend(int partition, long deadlineNanos) {
      Running r = running.get(partition);
      if (r != null) {
        r.deadline = deadlineNanos;
      }
    }

    @Override
    public void requestStop(int partition, boolean saveCheckpoint) {
      Running r = running.get(partition);
      if (r != null) {
        r.stopping = true; // ends at a later step: a listener call in progress
      }
    }

    @Override
    public void revoke(int partition) {
      running.remove(partition);
      trace.add(owner.id + " revoked " + partition);
    }

    @Override
    public boolean running(int partition) {
      Running r = running.get(partition);
      if (r != null && !r.stopping && ticker.read() - r.deadline >= 0) {
        r.gaveUp = true; // the consumer checks its deadline before every delivery
      }
      return r != null;
    }

    @Override
    public void awaitEnded(int partition, long millis) {
      // Lingering work ends at a later step, never while the member waits.
    }

    @Override
    public boolean gaveUp(int partition) {
      Running r = running.get(partition);
      if (r != null && ticker.read() - r.deadline >= 0) {
        r.gaveUp = true;
      }
      return r != null && r.gaveUp;
    }

    /** Stopping work ends: all of it ({@code random} null) or each by a coin. */
    void endLingering(@Nullable SplittableRandom random) {
      running.values().removeIf(r -> (r.stopping || r.gaveUp) && (random == null || random.nextBoolean()));
    }
  }
}
