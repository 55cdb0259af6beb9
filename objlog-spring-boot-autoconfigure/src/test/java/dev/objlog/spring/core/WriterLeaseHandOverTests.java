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
import dev.objlog.spring.listener.checkpoint.InMemoryCheckpointRepository;
import dev.objlog.store.Ticker;
import dev.objlog.store.memory.MemoryObjectStore;
import dev.objlog.testing.Await;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Giving a partition up to a new instance closes its writer off the renewal thread: while that
 * close is slow (a slow store), the partitions kept are still renewed, the given-up one takes no
 * sends, and its lease is released only after the close finished.
 */
class WriterLeaseHandOverTests {
  private static final WriterLeaseSettings SETTINGS = new WriterLeaseSettings(Duration.ofMinutes(1), Duration.ofMillis(10));

  private final InMemoryCheckpointRepository repository = new InMemoryCheckpointRepository();

  /** Counts renewals of one partition's lease. */
  private static final class CountingStore implements LeaseStore {
    final LeaseStore delegate;
    final AtomicInteger renewals = new AtomicInteger();
    final int counted;

    CountingStore(LeaseStore delegate, int counted) {
      this.delegate = delegate;
      this.counted = counted;
    }

    @Override
    public LeaseResult tryAcquire(LeaseId id, String owner, Duration ttl) {
      return delegate.tryAcquire(id, owner, ttl);
    }

    @Override
    public LeaseResult renew(LeaseId id, Lease held, Duration ttl) {
      if (id.role() == LeaseId.Role.PARTITION && id.index() == counted) {
        renewals.incrementAndGet();
      }
      return delegate.renew(id, held, ttl);
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


  private String owner(int partition) {
    return repository.leaseStore().current(LeaseId.ofWriters(LeaseId.Role.PARTITION, "orders", partition))
        .map(l -> l.owner()).orElse("nobody");
  }

  @Test
  void aSlowWriterCloseDelaysNeitherRenewalsNorTheReleaseOrder() throws Exception {
    CountDownLatch closeMayFinish = new CountDownLatch(1);
    CountDownLatch closing = new CountDownLatch(1);
    CountingStore store = new CountingStore(repository.leaseStore(), 0);
    WriterLeases first = new WriterLeases(store, "first", new WriterLeases.Listener() {
      @Override
      public void granted(String streamName, int partition) {}

      @Override
      public void givingUp(String streamName, int partition) {
        closing.countDown();
        try {
          closeMayFinish.await(30, TimeUnit.SECONDS); // a writer waiting for its records to commit
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }, Ticker.SYSTEM);
    first.add("orders", 2, PartitionSet.all(2), SETTINGS);
    first.start();
    assertThat(first.held("orders")).containsExactly(0, 1);

    WriterLeases second = new WriterLeases(repository.leaseStore(), "second",
        new WriterLeases.Listener() {
          @Override
          public void granted(String streamName, int partition) {}

          @Override
          public void givingUp(String streamName, int partition) {}
        }, Ticker.SYSTEM);
    try (first; second) {
      second.add("orders", 2, PartitionSet.all(2), SETTINGS);
      second.start();
      assertThat(closing.await(30, TimeUnit.SECONDS)).as("first gives partition 1 up").isTrue();

      assertThat(first.held("orders")).as("no more sends to the partition being closed").containsExactly(0);
      int before = store.renewals.get();
      Await.until("renewals of partition 0 during the slow close", () -> store.renewals.get() >= before + 3);
      assertThat(owner(1)).as("not released before its writer closed").isEqualTo("first");
      assertThat(second.held("orders")).isEmpty();

      closeMayFinish.countDown();
      Await.until("partition 1 moves to the second instance", () -> second.isHeld("orders", 1));
      assertThat(owner(1)).isEqualTo("second");
      assertThat(first.held("orders")).containsExactly(0);
    }
  }

  @Test
  void aPartitionHandedOverAndThenLostIsClosedOnce() throws Exception {
    CountDownLatch closeMayFinish = new CountDownLatch(1);
    CountDownLatch closing = new CountDownLatch(1);
    AtomicInteger closesOfPartition1 = new AtomicInteger();
    AtomicBoolean loseRenewalsOf1 = new AtomicBoolean();
    AtomicInteger lostRenewals = new AtomicInteger();
    LeaseStore base = repository.leaseStore();
    // While its writer is still closing, the handed-over lease is lost (taken and released since).
    LeaseStore store = new LeaseStore() {
      @Override
      public LeaseResult tryAcquire(LeaseId id, String owner, Duration ttl) {
        return base.tryAcquire(id, owner, ttl);
      }

      @Override
      public LeaseResult renew(LeaseId id, Lease held, Duration ttl) {
        if (loseRenewalsOf1.get() && id.role() == LeaseId.Role.PARTITION && id.index() == 1) {
          base.release(id, held);
          lostRenewals.incrementAndGet();
          return new LeaseResult.Refused(null);
        }
        return base.renew(id, held, ttl);
      }

      @Override
      public boolean release(LeaseId id, Lease held) {
        return base.release(id, held);
      }

      @Override
      public Optional<Lease> current(LeaseId id) {
        return base.current(id);
      }
    };
    WriterLeases first = new WriterLeases(store, "first", new WriterLeases.Listener() {
      @Override
      public void granted(String streamName, int partition) {}

      @Override
      public void givingUp(String streamName, int partition) {
        if (partition != 1) {
          return;
        }
        closesOfPartition1.incrementAndGet();
        closing.countDown();
        try {
          closeMayFinish.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }, Ticker.SYSTEM);
    first.add("orders", 2, PartitionSet.all(2), SETTINGS);
    first.start();
    WriterLeases second = new WriterLeases(repository.leaseStore(), "second",
        new WriterLeases.Listener() {
          @Override
          public void granted(String streamName, int partition) {}

          @Override
          public void givingUp(String streamName, int partition) {}
        }, Ticker.SYSTEM);
    try (second) {
      second.add("orders", 2, PartitionSet.all(2), SETTINGS);
      second.start();
      assertThat(closing.await(30, TimeUnit.SECONDS)).as("first hands partition 1 over").isTrue();
      loseRenewalsOf1.set(true);
      Await.until("the handed-over lease is lost while its writer closes", () -> lostRenewals.get() >= 1);
      closeMayFinish.countDown();
      Await.until("partition 1 moves to the second instance", () -> second.isHeld("orders", 1));
      first.close(); // runs every close still queued
      assertThat(closesOfPartition1).as("the writer of partition 1 is closed once, not again after the hand-over")
          .hasValue(1);
    }
  }

  private static WriterLeases.Listener ignoring() {
    return new WriterLeases.Listener() {
      @Override
      public void granted(String streamName, int partition) {}

      @Override
      public void givingUp(String streamName, int partition) {}
    };
  }

  @Test
  void aPartitionHandedOverRefusesSendsAtOnceWhileItsCloseWaitsBehindAnother() throws Exception {
    HeadSwapGate store = new HeadSwapGate(new MemoryObjectStore());
    WriterOptions fast = WriterOptions.builder().batch(Duration.ofMillis(1), 1L << 20, 1000).build();
    try (ObjlogStreams streams = new ObjlogStreams(store, List.of(new ObjlogStream("orders", "shop/orders", 4)),
            ObjlogOptions.defaults(), ReaderOptions.defaults());
        ObjlogTemplate template = new ObjlogTemplate(streams,
            Map.of("orders", new StreamWriterSettings(PartitionSet.all(4), fast, false, SETTINGS)),
            new DefaultRecordValueConverter(null), Clock.systemUTC(), new StoreActivity(), repository.leaseStore())) {
      assertThat(template.writablePartitions("orders").isAll()).isTrue();
      template.send("orders", 2, "opens the writer").get(30, TimeUnit.SECONDS);
      template.send("orders", 3, "opens the writer").get(30, TimeUnit.SECONDS);

      // Partition 3's writer has a commit in flight, held at the gate: closing it waits for that.
      store.holdNextHeadSwap();
      CompletableFuture<SendResult> inFlight = template.send("orders", 3, "in flight");
      store.awaitHeld();

      // A second instance joins: the template hands over its highest partitions, 3 then 2. The
      // hand-over thread closes 3's writer first, so 2's close waits behind it.
      try (WriterLeases second = new WriterLeases(repository.leaseStore(), "second", ignoring(), Ticker.SYSTEM)) {
        second.add("orders", 4, PartitionSet.all(4), SETTINGS);
        second.start();
        try {
          Await.until("the template gives partition 2 up", () -> !template.writablePartitions("orders").contains(2));

          assertThatThrownBy(() -> template.send("orders", 2, "after the hand-over"))
              .as("refused before its writer closes")
              .isInstanceOf(PartitionNotWritableException.class)
              .hasMessageContaining("does not hold the writer lease of partition 2 of stream 'orders'");
          assertThat(owner(2)).as("its lease is still held: its writer has not closed").startsWith("writer-");
        } finally {
          store.pass(); // also when an assertion failed: the template's close waits for the held commit
        }
        assertThat(inFlight.get(30, TimeUnit.SECONDS).partition()).isEqualTo(3);
        Await.until("both partitions move to the second instance",
            () -> second.isHeld("orders", 2) && second.isHeld("orders", 3));
      }
    }
  }
}
