package dev.objlog.spring.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.coordination.Lease;
import dev.objlog.coordination.LeaseId;
import dev.objlog.coordination.LeaseResult;
import dev.objlog.coordination.LeaseStore;
import dev.objlog.spring.coordination.InMemoryLeaseStore;
import dev.objlog.testing.Await;
import dev.objlog.testing.MutableTicker;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * When renewals fail, a writer lease is kept only while it is surely still valid, and that is
 * elapsed time since the last confirmed renewal, on the ticker: a wall clock stepped forward by
 * hours does not give the lease up early, one stepped back does not keep it past that point. The
 * store is cut off by the test; rounds run in the background every few milliseconds, and the test
 * waits for rounds to have happened, never for time to pass.
 */
class WriterLeasesElapsedTimeTests {
  private static final Duration TTL = Duration.ofMinutes(1);
  private static final Duration RENEW = Duration.ofMillis(10);
  private static final WriterLeaseSettings SETTINGS = new WriterLeaseSettings(TTL, RENEW);

  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z").toEpochMilli());
  private final MutableTicker ticker = new MutableTicker(Long.MAX_VALUE - Duration.ofSeconds(30).toNanos());
  private final CutStore store =
      new CutStore(new InMemoryLeaseStore(clock));
  private final Set<Integer> givenUp = ConcurrentHashMap.newKeySet();

  /** A lease store the test can cut off: every call fails then, and each renewal attempt is counted. */
  private static final class CutStore implements LeaseStore {
    final LeaseStore delegate;
    volatile boolean cut;
    final AtomicInteger failedRenewals = new AtomicInteger();

    CutStore(LeaseStore delegate) {
      this.delegate = delegate;
    }

    private void check() {
      if (cut) {
        throw new IllegalStateException("the lease store is unreachable (cut by the test)");
      }
    }

    @Override
    public LeaseResult tryAcquire(LeaseId id, String owner, Duration ttl) {
      check();
      return delegate.tryAcquire(id, owner, ttl);
    }

    @Override
    public LeaseResult renew(LeaseId id, Lease held, Duration ttl) {
      if (cut) {
        failedRenewals.incrementAndGet();
      }
      check();
      return delegate.renew(id, held, ttl);
    }

    @Override
    public boolean release(LeaseId id, Lease held) {
      check();
      return delegate.release(id, held);
    }

    @Override
    public Optional<Lease> current(LeaseId id) {
      check();
      return delegate.current(id);
    }
  }

  private WriterLeases keeper() {
    WriterLeases keeper = new WriterLeases(store, "writer-a", new WriterLeases.Listener() {
      @Override
      public void granted(String streamName, int partition) {}

      @Override
      public void givingUp(String streamName, int partition) {
        givenUp.add(partition);
      }
    }, ticker);
    keeper.add("orders", 1, PartitionSet.all(1), SETTINGS);
    return keeper;
  }


  /** Waits for {@code n} more failed renewals: that many background rounds ran since the call. */
  private void awaitFailedRenewals(int n) throws InterruptedException {
    int target = store.failedRenewals.get() + n;
    Await.until(n + " failed renewals", () -> store.failedRenewals.get() >= target);
  }

  @Test
  void aWallClockSteppedForwardDoesNotGiveUpALeaseThatIsSurelyStillValid() throws Exception {
    try (WriterLeases keeper = keeper()) {
      keeper.start();
      assertThat(keeper.held("orders")).containsExactly(0);
      assertThat(keeper.status("orders").leases().get(0).until())
          .as("the shown expiry is wall time").isEqualTo(clock.instant().plus(TTL));

      store.cut = true;
      clock.set(clock.millis() + Duration.ofDays(1).toMillis()); // far past the stored expiry
      ticker.advance(TTL.minus(RENEW).minusMillis(1)); // elapsed: just short of the limit
      awaitFailedRenewals(6);

      assertThat(keeper.held("orders")).as("held after failed renewals within the elapsed limit").containsExactly(0);
      assertThat(givenUp).isEmpty();
      store.cut = false; // let close release it
    }
  }

  @Test
  void aWallClockSteppedBackDoesNotKeepALeasePastTheElapsedLimit() throws Exception {
    try (WriterLeases keeper = keeper()) {
      keeper.start();
      assertThat(keeper.held("orders")).containsExactly(0);

      store.cut = true;
      clock.set(clock.millis() - Duration.ofHours(6).toMillis());
      ticker.advance(TTL.minus(RENEW)); // ttl minus one round since the last confirmed renewal
      Await.until("the lease is given up", () -> givenUp.contains(0));
      assertThat(keeper.held("orders")).isEmpty();
    }
  }
}
