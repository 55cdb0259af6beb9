package dev.objlog.coordination;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.format.key.KeyPrefixes;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.store.memory.MemoryObjectStore;
import dev.objlog.store.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * A partition's lease moves to another member only once this member's consumer thread for it has
 * ended: a listener call that outlives a hand-over or a shutdown must not overlap the next
 * holder's processing. The container is replaced by a recorder whose threads the test says are
 * alive or not.
 */
class PartitionSharingHandOverTests {
  private static final Duration TTL = Duration.ofSeconds(60);
  private static final Duration RENEW = Duration.ofMillis(20);
  private static final Duration MARGIN = Duration.ofSeconds(15);

  private final BucketLeaseStore leases = new BucketLeaseStore(new MemoryObjectStore(),
      (stream, partition) -> PartitionKeys.of(KeyPrefixes.resolve("objlog"), "shop/" + stream, partition),
      Clock.systemUTC());

  /** Records what the member asked; "alive" partitions have a consumer thread still running. */
  static final class Recorder implements PartitionSharing.Partitions {
    final Set<Integer> started = ConcurrentHashMap.newKeySet();
    final Set<Integer> stopRequested = ConcurrentHashMap.newKeySet();
    final Set<Integer> alive = ConcurrentHashMap.newKeySet();

    @Override
    public void start(int partition, long deadlineNanos) {
      started.add(partition);
      alive.add(partition);
    }

    @Override
    public void extend(int partition, long deadlineNanos) {}

    @Override
    public void requestStop(int partition, boolean saveCheckpoint) {
      stopRequested.add(partition);
    }

    @Override
    public void revoke(int partition) {
      stopRequested.add(partition);
    }

    @Override
    public boolean running(int partition) {
      return alive.contains(partition);
    }

    @Override
    public void awaitEnded(int partition, long millis) {}

    @Override
    public boolean gaveUp(int partition) {
      return false;
    }
  }

  private PartitionSharing member(String instance, Recorder recorder) {
    return new PartitionSharing(new PartitionSharing.Settings(leases, instance, TTL, RENEW, MARGIN), "billing",
        "orders", List.of(0, 1), List.of(0, 1), Ticker.SYSTEM, recorder, PartitionSharing.Reporter.SILENT);
  }

  private Optional<String> owner(int partition) {
    return leases.current(LeaseId.ofGroup("billing", LeaseId.Role.PARTITION, "orders", partition)).map(Lease::owner);
  }

  @Test
  void aShedPartitionKeepsItsLeaseUntilItsListenerCallEndsThenTheNewMemberTakesIt() {
    Recorder a = new Recorder();
    Recorder b = new Recorder();
    PartitionSharing first = member("a", a);
    PartitionSharing second = member("b", b);
    first.tick();
    assertThat(a.started).containsExactlyInAnyOrder(0, 1);
    second.tick(); // joins: two members now, but both partitions are still a's
    assertThat(b.started).isEmpty();

    first.tick(); // sheds partition 1, whose consumer is still in a listener call
    assertThat(a.stopRequested).containsExactly(1);
    assertThat(owner(1)).as("lease of the partition still being processed").contains("a");
    second.tick();
    assertThat(b.started).as("nobody starts a partition another member still processes").isEmpty();

    a.alive.remove(1); // the call returned and the consumer saved and ended
    first.tick();
    assertThat(owner(1)).isEmpty();
    second.tick();
    assertThat(b.started).containsExactly(1);
    assertThat(owner(1)).contains("b");
    assertThat(owner(0)).contains("a");
  }

  @Test
  void onShutdownOnlyPartitionsWhoseThreadsEndedAreReleased() {
    Recorder a = new Recorder();
    PartitionSharing member = member("a", a);
    member.tick();
    a.alive.remove(0); // partition 1's listener call outlives the shutdown timeout
    member.releaseAll();
    assertThat(owner(0)).as("released at once for the other members").isEmpty();
    assertThat(owner(1)).as("left to expire while its call may still save").contains("a");
  }

  @Test
  void aMemberNeverStartsASecondConsumerForAPartitionItsOldThreadStillProcesses() {
    Recorder a = new Recorder();
    PartitionSharing member = member("a", a);
    member.tick();
    member.releaseAll(); // both still alive: neither is released, neither tracked any more
    a.started.clear();
    member.tick();
    assertThat(a.started).isEmpty();
  }
}
