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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * A member's local lease deadline is elapsed time: the ticker reading when the last successful
 * acquire or renewal was sent, plus the ttl, minus the safety margin. The wall clock, which the
 * stored lease expiry follows, may be stepped by hours either way without moving it.
 */
class PartitionSharingLeaseDeadlineTests {
  private static final Duration TTL = Duration.ofSeconds(60);
  private static final Duration RENEW = Duration.ofSeconds(5);
  private static final Duration MARGIN = Duration.ofSeconds(15);
  private static final long WINDOW = TTL.minus(MARGIN).toNanos();

  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final MutableTicker ticker = new MutableTicker(Long.MAX_VALUE - Duration.ofSeconds(50).toNanos());
  private final BucketLeaseStore leases = new BucketLeaseStore(new MemoryObjectStore(),
      (stream, partition) -> PartitionKeys.of(KeyPrefixes.resolve("objlog"), "shop/" + stream, partition), clock);

  /** The deadlines the member gave each partition, last first. */
  static final class Deadlines implements PartitionSharing.Partitions {
    final Map<Integer, Long> last = new ConcurrentHashMap<>();
    final Map<Integer, Boolean> revoked = new ConcurrentHashMap<>();

    @Override
    public void start(int partition, long deadlineNanos) {
      last.put(partition, deadlineNanos);
    }

    @Override
    public void extend(int partition, long deadlineNanos) {
      last.put(partition, deadlineNanos);
    }

    @Override
    public void requestStop(int partition, boolean saveCheckpoint) {}

    @Override
    public void revoke(int partition) {
      revoked.put(partition, true);
    }

    @Override
    public boolean running(int partition) {
      return last.containsKey(partition) && !revoked.containsKey(partition);
    }

    @Override
    public void awaitEnded(int partition, long millis) {}

    @Override
    public boolean gaveUp(int partition) {
      return false;
    }
  }

  private PartitionSharing member(LeaseStore store, Deadlines target) {
    return new PartitionSharing(new PartitionSharing.Settings(store, "a", TTL, RENEW, MARGIN), "billing", "orders",
        List.of(0), List.of(0), ticker, target, PartitionSharing.Reporter.SILENT);
  }

  @Test
  void theDeadlineFollowsTheTickerWhateverTheWallClockDoes() {
    Deadlines target = new Deadlines();
    PartitionSharing member = member(leases, target);
    long sent = ticker.read();
    member.tick();
    assertThat(target.last).as("deadline of the acquired partition").containsEntry(0, sent + WINDOW);

    clock.advance(Duration.ofHours(6)); // stepped forward: the stored lease expired, nobody took it
    ticker.advance(RENEW);
    sent = ticker.read();
    member.tick();
    assertThat(target.last).as("deadline after a renewal across a forward step").containsEntry(0, sent + WINDOW);

    clock.advance(Duration.ofHours(-12)); // stepped back
    ticker.advance(RENEW);
    sent = ticker.read();
    member.tick();
    assertThat(target.last).as("deadline after a renewal across a backward step").containsEntry(0, sent + WINDOW);
    assertThat(target.revoked).as("the steps cost no partition").isEmpty();
    assertThat(leases.current(LeaseId.ofGroup("billing", LeaseId.Role.PARTITION, "orders", 0)).orElseThrow().until())
        .as("the stored expiry stays wall time, for the other instances").isEqualTo(clock.instant().plus(TTL));
  }

  @Test
  void aFailedRenewalLeavesTheDeadlineAtTheLastSuccessfulOne() {
    Deadlines target = new Deadlines();
    LeaseStore unreachable = new LeaseStore() {
      @Override
      public LeaseResult tryAcquire(LeaseId key, String owner, Duration ttl) {
        return leases.tryAcquire(key, owner, ttl);
      }

      @Override
      public LeaseResult renew(LeaseId key, Lease held, Duration ttl) {
        throw new IllegalStateException("the lease store is unreachable (test)");
      }

      @Override
      public boolean release(LeaseId key, Lease held) {
        return leases.release(key, held);
      }

      @Override
      public Optional<Lease> current(LeaseId key) {
        return leases.current(key);
      }
    };
    PartitionSharing member = member(unreachable, target);
    long sent = ticker.read();
    member.tick();
    for (Duration step : List.of(Duration.ofHours(-3), Duration.ofHours(6))) {
      clock.advance(step);
      ticker.advance(RENEW);
      member.tick();
      assertThat(target.last).as("deadline after a failed renewal (wall clock stepped %s)", step)
          .containsEntry(0, sent + WINDOW);
    }
  }
}
