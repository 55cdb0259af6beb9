package dev.objlog.spring.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.ObjlogOptions;
import dev.objlog.WriterOptions;
import dev.objlog.coordination.Lease;
import dev.objlog.coordination.LeaseId;
import dev.objlog.coordination.LeaseResult;
import dev.objlog.coordination.LeaseStore;
import dev.objlog.read.ReaderOptions;
import dev.objlog.spring.coordination.InMemoryLeaseStore;
import dev.objlog.store.memory.MemoryObjectStore;
import dev.objlog.testing.Await;
import dev.objlog.testing.MutableTicker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A writer lease is surely held only until its deadline, a ticker reading: the ttl minus one renew
 * interval after its last confirmed acquire or renewal was sent. Past it the partition takes no
 * sends, at once, not only from the next lease round; and an acquire or renewal confirmed only
 * after the deadline it gives (a reply slower than the ttl) neither starts nor extends a writer.
 * Elapsed time is a {@link MutableTicker} the test moves, inside the lease calls where a slow reply
 * is wanted; nothing waits for real time to pass.
 */
class WriterLeaseDeadlineTests {
  private static final WriterOptions FAST = WriterOptions.builder().batch(Duration.ofMillis(1), 1L << 20, 1000).build();

  private final MutableClock leaseClock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z").toEpochMilli());
  private final MutableTicker ticker = new MutableTicker(Long.MAX_VALUE - Duration.ofSeconds(30).toNanos());
  private final Queue<String> events = new ConcurrentLinkedQueue<>();

  @Test
  void aSendPastTheLeaseDeadlineIsRefusedBeforeAnyRoundNoticesIt() throws Exception {
    // One round at startup, the next one only after half an hour of real time: none in this test.
    WriterLeaseSettings lease = new WriterLeaseSettings(Duration.ofHours(1), Duration.ofMinutes(30));
    try (ObjlogStreams streams = new ObjlogStreams(new MemoryObjectStore(),
            List.of(new ObjlogStream("orders", "shop/orders", 2)), ObjlogOptions.builder().ticker(ticker).build(),
            ReaderOptions.defaults());
        ObjlogTemplate template = new ObjlogTemplate(streams,
            Map.of("orders", new StreamWriterSettings(PartitionSet.all(2), FAST, false, lease)),
            new DefaultRecordValueConverter(null), Clock.systemUTC(), new StoreActivity(),
            new InMemoryLeaseStore(leaseClock))) {
      assertThat(template.writablePartitions("orders").isAll()).isTrue();
      assertThat(template.send("orders", 1, "before").get(30, TimeUnit.SECONDS).partition()).isEqualTo(1);

      ticker.advance(Duration.ofMinutes(30)); // the ttl minus one renew interval: the deadline

      assertThatThrownBy(() -> template.send("orders", 1, "past the deadline"))
          .isInstanceOf(PartitionNotWritableException.class)
          .hasMessageContaining("does not hold the writer lease of partition 1 of stream 'orders'")
          .hasMessageContaining("it holds none yet");
      assertThatThrownBy(() -> template.send("orders", "some-key", "past the deadline"))
          .isInstanceOf(PartitionNotWritableException.class);
      assertThat(template.writablePartitions("orders").size()).isZero();
    }
  }

  /** A lease store whose next partition-0 acquire or renewal (when armed) is answered a ttl late. */
  private final class SlowReplies implements LeaseStore {
    final LeaseStore delegate = new InMemoryLeaseStore(leaseClock);
    final AtomicBoolean slowAcquire = new AtomicBoolean();
    final AtomicBoolean slowRenewal = new AtomicBoolean();
    final Duration delay;

    SlowReplies(Duration delay) {
      this.delay = delay;
    }

    private static boolean isPartition0(LeaseId id) {
      return id.role() == LeaseId.Role.PARTITION && id.index() == 0;
    }

    @Override
    public LeaseResult tryAcquire(LeaseId id, String owner, Duration ttl) {
      LeaseResult result = delegate.tryAcquire(id, owner, ttl);
      if (isPartition0(id) && slowAcquire.compareAndSet(true, false)) {
        ticker.advance(delay); // the reply arrives this much later
      }
      return result;
    }

    @Override
    public LeaseResult renew(LeaseId id, Lease held, Duration ttl) {
      LeaseResult result = delegate.renew(id, held, ttl);
      if (isPartition0(id) && result.granted() && slowRenewal.compareAndSet(true, false)) {
        ticker.advance(delay);
      }
      return result;
    }

    @Override
    public boolean release(LeaseId id, Lease held) {
      return delegate.release(id, held);
    }

    @Override
    public Optional<Lease> current(LeaseId id) {
      return delegate.current(id);
    }
  }

  private static final WriterLeaseSettings ROUNDS = new WriterLeaseSettings(Duration.ofMinutes(1), Duration.ofMillis(10));

  private WriterLeases keeper(LeaseStore store) {
    WriterLeases keeper = new WriterLeases(store, "writer-a", new WriterLeases.Listener() {
      @Override
      public void granted(String streamName, int partition) {
        events.add("granted " + partition);
      }

      @Override
      public void givingUp(String streamName, int partition) {
        events.add("givingUp " + partition);
      }
    }, ticker);
    keeper.add("orders", 1, PartitionSet.all(1), ROUNDS);
    return keeper;
  }

  @Test
  void aLeaseGrantedOnlyAfterItsDeadlineDoesNotStartTheWriterAndIsTakenAgain() throws Exception {
    SlowReplies store = new SlowReplies(ROUNDS.ttl());
    store.slowAcquire.set(true);
    try (WriterLeases keeper = keeper(store)) {
      keeper.start(); // the first round runs here: its acquire is answered a ttl late

      assertThat(keeper.held("orders")).as("not started past its deadline").isEmpty();
      assertThat(events).isEmpty();

      // A later round releases that lease and takes the partition again, in time.
      Await.until("partition 0 is taken again", () -> keeper.isHeld("orders", 0));
      assertThat(events).containsExactly("granted 0");
    }
  }

  @Test
  void aRenewalConfirmedOnlyAfterItsDeadlineClosesTheWriterAndTheLeaseIsTakenAgain() throws Exception {
    SlowReplies store = new SlowReplies(ROUNDS.ttl());
    try (WriterLeases keeper = keeper(store)) {
      keeper.start();
      assertThat(keeper.held("orders")).containsExactly(0);

      store.slowRenewal.set(true); // the next round's renewal is answered a ttl late

      Await.until("the writer of partition 0 is closed", () -> events.contains("givingUp 0"));
      Await.until("partition 0 is taken again", () -> List.copyOf(events).equals(
          List.of("granted 0", "givingUp 0", "granted 0")) && keeper.isHeld("orders", 0));
    }
  }

}
