package dev.objlog.spring.listener.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.coordination.Lease;
import dev.objlog.coordination.LeaseId;
import dev.objlog.coordination.LeaseResult;
import dev.objlog.coordination.LeaseStore;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.spring.coordination.LeaseStoreProvider;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link CheckpointRepository} (and the {@link LeaseStore} it provides)
 * keeps: run against memory, JDBC on H2, PostgreSQL and MariaDB, and the bucket on the memory and
 * filesystem stores. Streams named {@code <name>} have the stream id {@code demo/<name>}.
 */
abstract class CheckpointRepositoryContractTests {
  static final int RACERS = 8;
  static final Duration TTL = Duration.ofSeconds(10);

  protected MutableClock clock;
  private CheckpointRepository checkpoints;
  private LeaseStore leases;

  /** A repository on fresh (or emptied) storage, with {@code clock}. */
  protected abstract CheckpointRepository create(Clock clock) throws Exception;

  @BeforeEach
  void createRepository() throws Exception {
    clock = new MutableClock(Instant.parse("2026-01-02T03:04:05.678Z"));
    checkpoints = create(clock);
    leases = ((LeaseStoreProvider) checkpoints).leaseStore();
  }

  @AfterEach
  void releaseRepository() throws Exception {
    close();
  }

  protected void close() throws Exception {}

  static String streamId(String streamName) {
    return "demo/" + streamName;
  }

  static CursorCheckpoint at(String streamName, int partition, long nextLsn) {
    return CursorCheckpoint.of(streamId(streamName), partition, nextLsn);
  }

  // ---- checkpoints ----

  @Test
  void nothingIsStoredAtFirst() {
    assertThat(checkpoints.load("billing", "orders", 0)).isEmpty();
  }

  @Test
  void aSavedCheckpointLoadsWithItsExactJsonVersionAndTime() {
    CheckpointKey key = CheckpointKey.of("billing", "orders", 7);
    CursorCheckpoint checkpoint = at("orders", 7, 4);

    CheckpointVersion version = checkpoints.save(key, checkpoint, CheckpointVersion.ABSENT);

    assertThat(version.isAbsent()).isFalse();
    StoredCheckpoint stored = checkpoints.load("billing", "orders", 7).orElseThrow();
    assertThat(stored.checkpointJson()).isEqualTo("{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":7,\"next_lsn\":4}");
    assertThat(stored.checkpoint()).isEqualTo(checkpoint);
    assertThat(stored.key()).isEqualTo(key);
    assertThat(stored.version()).isEqualTo(version);
    assertThat(stored.updatedAt()).isEqualTo(Instant.parse("2026-01-02T03:04:05.678Z"));
  }

  @Test
  void theLargestLsnAndPartitionRoundTrip() {
    CheckpointKey key = CheckpointKey.of("billing", "orders", -1);
    CursorCheckpoint checkpoint = at("orders", -1, -1L);

    checkpoints.save(key, checkpoint, CheckpointVersion.ABSENT);

    assertThat(checkpoints.load(key).orElseThrow().checkpointJson())
        .isEqualTo("{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":4294967295,\"next_lsn\":18446744073709551615}");
  }

  @Test
  void savingFromTheLoadedVersionAdvances() {
    CheckpointKey key = CheckpointKey.of("billing", "orders", 0);
    CheckpointVersion v1 = checkpoints.save(key, at("orders", 0, 10), CheckpointVersion.ABSENT);
    clock.advance(Duration.ofSeconds(3));

    CheckpointVersion v2 = checkpoints.save(key, at("orders", 0, 20), v1);

    assertThat(v2).isNotEqualTo(v1);
    StoredCheckpoint stored = checkpoints.load(key).orElseThrow();
    assertThat(stored.checkpoint().nextLsn()).isEqualTo(20);
    assertThat(stored.version()).isEqualTo(v2);
    assertThat(stored.updatedAt()).isEqualTo(Instant.parse("2026-01-02T03:04:08.678Z"));
    assertThat(checkpoints.save(key, at("orders", 0, 30), v2)).isNotIn(v1, v2);
  }

  @Test
  void savingFromAStaleVersionConflictsAndWritesNothing() {
    CheckpointKey key = CheckpointKey.of("billing", "orders", 0);
    CheckpointVersion v1 = checkpoints.save(key, at("orders", 0, 10), CheckpointVersion.ABSENT);
    CheckpointVersion v2 = checkpoints.save(key, at("orders", 0, 20), v1);

    assertThatThrownBy(() -> checkpoints.save(key, at("orders", 0, 15), v1))
        .isInstanceOfSatisfying(CheckpointConflictException.class, e -> {
          assertThat(e.getKey()).isEqualTo(key);
          assertThat(e.getExpected()).isEqualTo(v1);
          e.getCurrent().ifPresent(current -> {
            assertThat(current.version()).isEqualTo(v2);
            assertThat(current.checkpoint().nextLsn()).isEqualTo(20);
          });
        });
    assertThat(checkpoints.load(key).orElseThrow().checkpoint().nextLsn()).isEqualTo(20);
  }

  @Test
  void creatingTwiceConflicts() {
    CheckpointKey key = CheckpointKey.of("billing", "orders", 0);
    checkpoints.save(key, at("orders", 0, 10), CheckpointVersion.ABSENT);

    assertThatThrownBy(() -> checkpoints.save(key, at("orders", 0, 11), CheckpointVersion.ABSENT))
        .isInstanceOf(CheckpointConflictException.class);
    assertThat(checkpoints.load(key).orElseThrow().checkpoint().nextLsn()).isEqualTo(10);
  }

  @Test
  void aCheckpointOfAnotherPartitionIsRejected() {
    assertThatThrownBy(() -> checkpoints.save(CheckpointKey.of("billing", "orders", 1), at("orders", 2, 0), CheckpointVersion.ABSENT))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void ofInstancesRacingFromOneVersionExactlyOneWins() throws Exception {
    CheckpointKey key = CheckpointKey.of("billing", "orders", 3);
    CheckpointVersion expected = CheckpointVersion.ABSENT;
    for (int round = 0; round < 4; round++) {
      long base = 100L * round;
      CheckpointVersion from = expected;
      List<Optional<CheckpointVersion>> outcomes = race(i -> {
        try {
          return Optional.of(checkpoints.save(key, at("orders", 3, base + i), from));
        } catch (CheckpointConflictException e) {
          return Optional.empty();
        }
      });
      List<Integer> winners = new ArrayList<>();
      for (int i = 0; i < outcomes.size(); i++) {
        if (outcomes.get(i).isPresent()) {
          winners.add(i);
        }
      }
      assertThat(winners).as("winners of round %d (from version %s)", round, from).hasSize(1);
      StoredCheckpoint stored = checkpoints.load(key).orElseThrow();
      assertThat(stored.checkpoint().nextLsn()).isEqualTo(base + winners.get(0));
      assertThat(stored.version()).isEqualTo(outcomes.get(winners.get(0)).orElseThrow());
      expected = stored.version();
    }
  }

  @Test
  void checkpointsAreKeptApartByListenerStreamAndPartition() {
    List<CheckpointKey> keys = List.of(
        CheckpointKey.of("billing", "orders", 0),
        CheckpointKey.of("shipping", "orders", 0),
        CheckpointKey.of("billing", "payments", 0),
        CheckpointKey.of("billing", "orders", 1));
    checkpoints.save(keys.get(0), at("orders", 0, 5), CheckpointVersion.ABSENT);
    for (CheckpointKey other : keys.subList(1, keys.size())) {
      assertThat(checkpoints.load(other)).as("%s", other).isEmpty();
    }
    for (int i = 1; i < keys.size(); i++) {
      CheckpointKey key = keys.get(i);
      checkpoints.save(key, at(key.streamName(), key.partition(), 100 + i), CheckpointVersion.ABSENT);
    }
    assertThat(checkpoints.load(keys.get(0)).orElseThrow().checkpoint().nextLsn()).isEqualTo(5);
    for (int i = 1; i < keys.size(); i++) {
      StoredCheckpoint stored = checkpoints.load(keys.get(i)).orElseThrow();
      assertThat(stored.checkpoint()).isEqualTo(at(keys.get(i).streamName(), keys.get(i).partition(), 100 + i));
      assertThat(stored.key()).isEqualTo(keys.get(i));
    }
  }

  // ---- leases ----

  @Test
  void aFreeLeaseIsGrantedWithEpochOne() {
    LeaseResult result = leases.tryAcquire(id("group", "orders", 0), "a", TTL);

    Lease lease = granted(result);
    assertThat(lease.owner()).isEqualTo("a");
    assertThat(lease.epoch()).isEqualTo(1);
    assertThat(lease.until()).isEqualTo(clock.instant().plus(TTL));
    assertThat(leases.current(id("group", "orders", 0))).contains(lease);
  }

  @Test
  void aHeldLeaseIsRefusedToOthersUntilItExpiresThenTakenWithTheNextEpoch() {
    LeaseId key = id("group", "orders", 0);
    Lease a = granted(leases.tryAcquire(key, "a", TTL));

    assertThat(leases.tryAcquire(key, "b", TTL)).isEqualTo(new LeaseResult.Refused(a));
    clock.advance(TTL.minusMillis(1));
    assertThat(leases.tryAcquire(key, "b", TTL)).isEqualTo(new LeaseResult.Refused(a));
    assertThat(leases.current(key)).contains(a);

    clock.advance(Duration.ofMillis(1));
    assertThat(leases.current(key)).isEmpty();
    Lease b = granted(leases.tryAcquire(key, "b", TTL));
    assertThat(b.owner()).isEqualTo("b");
    assertThat(b.epoch()).isEqualTo(2);
    assertThat(leases.current(key)).contains(b);
  }

  @Test
  void theHolderAcquiringAgainExtendsItsLeaseInTheSameEpoch() {
    LeaseId key = id("group", "orders", 0);
    granted(leases.tryAcquire(key, "a", TTL));
    clock.advance(Duration.ofSeconds(4));

    Lease again = granted(leases.tryAcquire(key, "a", TTL));

    assertThat(again.epoch()).isEqualTo(1);
    assertThat(again.until()).isEqualTo(clock.instant().plus(TTL));
  }

  @Test
  void renewingExtendsTheLease() {
    LeaseId key = id("group", "orders", 0);
    Lease a = granted(leases.tryAcquire(key, "a", TTL));
    clock.advance(Duration.ofSeconds(8));

    Lease renewed = granted(leases.renew(key, a, TTL));

    assertThat(renewed).isEqualTo(new Lease("a", clock.instant().plus(TTL), 1));
    clock.advance(Duration.ofSeconds(8));
    assertThat(leases.tryAcquire(key, "b", TTL)).isEqualTo(new LeaseResult.Refused(renewed));
  }

  @Test
  void renewingAfterTheLeaseWasTakenFails() {
    LeaseId key = id("group", "orders", 0);
    Lease a = granted(leases.tryAcquire(key, "a", TTL));
    clock.advance(TTL);
    Lease b = granted(leases.tryAcquire(key, "b", TTL));

    assertThat(leases.renew(key, a, TTL)).isEqualTo(new LeaseResult.Refused(b));
    assertThat(leases.release(key, a)).isFalse();
    assertThat(leases.current(key)).contains(b);
  }

  @Test
  void anExpiredLeaseNobodyTookCanStillBeRenewed() {
    LeaseId key = id("group", "orders", 0);
    Lease a = granted(leases.tryAcquire(key, "a", TTL));
    clock.advance(TTL.plusSeconds(5));

    Lease renewed = granted(leases.renew(key, a, TTL));

    assertThat(renewed.epoch()).isEqualTo(1);
    assertThat(renewed.until()).isEqualTo(clock.instant().plus(TTL));
  }

  @Test
  void aReleasedLeaseCanBeTakenAtOnceAndNotRenewed() {
    LeaseId key = id("group", "orders", 0);
    Lease a = granted(leases.tryAcquire(key, "a", TTL));

    assertThat(leases.release(key, a)).isTrue();

    assertThat(leases.current(key)).isEmpty();
    assertThat(leases.renew(key, a, TTL)).isEqualTo(new LeaseResult.Refused(null));
    assertThat(leases.release(key, a)).isFalse();
    Lease b = granted(leases.tryAcquire(key, "b", TTL));
    assertThat(b.epoch()).isEqualTo(2);
    assertThat(leases.release(key, b)).isTrue();
    assertThat(granted(leases.tryAcquire(key, "a", TTL)).epoch()).isEqualTo(3);
  }

  @Test
  void leasesAreKeptApartByGroupStreamAndPartition() {
    Lease a = granted(leases.tryAcquire(id("group", "orders", 0), "a", TTL));

    assertThat(granted(leases.tryAcquire(id("other", "orders", 0), "b", TTL)).epoch()).isEqualTo(1);
    assertThat(granted(leases.tryAcquire(id("group", "payments", 0), "b", TTL)).epoch()).isEqualTo(1);
    assertThat(granted(leases.tryAcquire(id("group", "orders", 1), "b", TTL)).epoch()).isEqualTo(1);
    assertThat(leases.current(id("group", "orders", 0))).contains(a);
  }

  @Test
  void ofOwnersRacingForAFreeLeaseExactlyOneGetsIt() throws Exception {
    LeaseId key = id("group", "orders", 5);
    for (int round = 0; round < 3; round++) {
      String owners = "round-" + round + "-owner-";
      List<LeaseResult> results = race(i -> leases.tryAcquire(key, owners + i, TTL));
      List<Lease> granted = results.stream().flatMap(r -> r.grantedLease().stream()).toList();
      assertThat(granted).as("round %d", round).hasSize(1);
      assertThat(leases.current(key)).contains(granted.get(0));
      assertThat(granted.get(0).epoch()).isEqualTo(round + 1);
      clock.advance(TTL);
    }
  }

  @Test
  void invalidArgumentsAreRejected() {
    assertThatThrownBy(() -> leases.tryAcquire(id("group", "orders", 0), "a", Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> leases.tryAcquire(id("group", "orders", 0), "", TTL))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CheckpointKey.of("a/b", "orders", 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> id("..", "orders", 0)).isInstanceOf(IllegalArgumentException.class);
  }

  // ---- helpers ----

  /** A consumer group's partition lease. */
  static LeaseId id(String group, String streamName, int partition) {
    return LeaseId.ofGroup(group, LeaseId.Role.PARTITION, streamName, partition);
  }

  static Lease granted(LeaseResult result) {
    assertThat(result).isInstanceOf(LeaseResult.Granted.class);
    return ((LeaseResult.Granted) result).lease();
  }

  interface Racer<T> {
    T run(int index) throws Exception;
  }

  /** Runs {@value #RACERS} racers released together by a barrier; their results by index. */
  static <T> List<T> race(Racer<T> racer) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(RACERS);
    try {
      CyclicBarrier start = new CyclicBarrier(RACERS);
      List<Future<T>> futures = new ArrayList<>();
      for (int i = 0; i < RACERS; i++) {
        int index = i;
        Callable<T> task = () -> {
          start.await(30, TimeUnit.SECONDS);
          return racer.run(index);
        };
        futures.add(pool.submit(task));
      }
      List<T> results = new ArrayList<>();
      for (Future<T> f : futures) {
        results.add(f.get(60, TimeUnit.SECONDS));
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }
}
