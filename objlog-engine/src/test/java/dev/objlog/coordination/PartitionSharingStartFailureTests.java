package dev.objlog.coordination;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.format.key.KeyPrefixes;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.store.memory.MemoryObjectStore;
import dev.objlog.testing.MutableClock;
import dev.objlog.testing.MutableTicker;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A partition whose start throws is not kept: the lease taken for it is released in the same
 * tick, so that the partition is not held without work being renewed for ever, and a later tick
 * takes it again. Ticks are called directly, on virtual time.
 */
class PartitionSharingStartFailureTests {
  private static final Duration TTL = Duration.ofSeconds(60);
  private static final Duration RENEW = Duration.ofSeconds(5);
  private static final Duration MARGIN = Duration.ofSeconds(15);
  private static final LeaseId PARTITION_0 = LeaseId.ofGroup("billing", LeaseId.Role.PARTITION, "orders", 0);

  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final MutableTicker ticker = new MutableTicker();
  private final BucketLeaseStore leases = new BucketLeaseStore(new MemoryObjectStore(),
      (stream, partition) -> PartitionKeys.of(KeyPrefixes.resolve("objlog"), "shop/" + stream, partition), clock);

  /** Its first {@code failures} starts throw; {@code runAnyway}: a failed start leaves work running. */
  static final class FailingStarts implements PartitionSharing.Partitions {
    final AtomicInteger failures;
    final boolean runAnyway;
    final Set<Integer> running = ConcurrentHashMap.newKeySet();
    final Set<Integer> stopRequested = ConcurrentHashMap.newKeySet();

    FailingStarts(int failures, boolean runAnyway) {
      this.failures = new AtomicInteger(failures);
      this.runAnyway = runAnyway;
    }

    @Override
    public void start(int partition, long deadlineNanos) {
      if (failures.getAndDecrement() > 0) {
        if (runAnyway) {
          running.add(partition);
        }
        throw new IllegalStateException("test: the partition's work could not start");
      }
      running.add(partition);
    }

    @Override
    public void extend(int partition, long deadlineNanos) {}

    @Override
    public void requestStop(int partition, boolean saveCheckpoint) {
      stopRequested.add(partition);
    }

    @Override
    public void revoke(int partition) {
      running.remove(partition);
    }

    @Override
    public boolean running(int partition) {
      return running.contains(partition);
    }

    @Override
    public void awaitEnded(int partition, long millis) {}

    @Override
    public boolean gaveUp(int partition) {
      return false;
    }
  }

  private PartitionSharing member(String owner, PartitionSharing.Partitions target) {
    return new PartitionSharing(new PartitionSharing.Settings(leases, owner, TTL, RENEW, MARGIN), "billing", "orders",
        List.of(0), List.of(0), ticker, target, PartitionSharing.Reporter.SILENT);
  }

  private Optional<String> owner() {
    return leases.current(PARTITION_0).map(Lease::owner);
  }

  @Test
  void aPartitionWhoseStartThrowsIsReleasedAndTakenAgainLater() {
    FailingStarts target = new FailingStarts(1, false);
    PartitionSharing member = member("a", target);

    member.tick();
    assertThat(member.heldPartitions()).as("not kept after its start failed").isEmpty();
    assertThat(owner()).as("its lease released in the same tick").isEmpty();

    ticker.advance(RENEW);
    clock.advance(RENEW);
    member.tick();
    assertThat(member.heldPartitions()).as("taken again by the next tick").containsExactly(0);
    assertThat(target.running).containsExactly(0);
    assertThat(owner()).hasValue("a");
  }

  @Test
  void aFailedStartWhoseWorkRunsAnywayKeepsItsLeaseUntilThatWorkEnded() {
    FailingStarts target = new FailingStarts(1, true);
    PartitionSharing member = member("a", target);

    member.tick();
    assertThat(member.heldPartitions()).as("not kept as a running partition").isEmpty();
    assertThat(target.stopRequested).as("the work that runs anyway is asked to stop").containsExactly(0);
    assertThat(owner()).as("held while that work runs").hasValue("a");

    target.running.remove(0); // the work ended
    ticker.advance(RENEW);
    clock.advance(RENEW);
    member.tick(); // releases it, then takes it again with a start that succeeds
    assertThat(member.heldPartitions()).containsExactly(0);
    assertThat(target.running).containsExactly(0);
  }
}
