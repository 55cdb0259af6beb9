package dev.objlog.spring.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionWriter;
import dev.objlog.StaleWriterException;
import dev.objlog.WriterOptions;
import dev.objlog.read.ReaderOptions;
import dev.objlog.spring.listener.checkpoint.InMemoryCheckpointRepository;
import dev.objlog.coordination.LeaseId;
import dev.objlog.store.memory.MemoryObjectStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Writer leases against a lease repository whose clock the test moves: expired leases are taken
 * over, a lost lease closes its writer, and the catalog fence still rejects a writer that bypassed
 * the leases.
 */
class WriterLeaseTemplateTests {
  private static final WriterOptions FAST = WriterOptions.builder().batch(Duration.ofMillis(1), 1L << 20, 1000).build();
  private static final Duration TTL = Duration.ofMinutes(1);
  private static final LeaseId PARTITION_1 = LeaseId.ofWriters(LeaseId.Role.PARTITION, "orders", 1);

  private final MutableClock leaseClock = new MutableClock(1_700_000_000_000L);
  private final InMemoryCheckpointRepository repository = new InMemoryCheckpointRepository(leaseClock);
  private final MemoryObjectStore store = new MemoryObjectStore();
  private final List<AutoCloseable> closeables = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
  }

  private ObjlogStreams streams() {
    ObjlogStreams streams = new ObjlogStreams(store, List.of(new ObjlogStream("orders", "shop/orders", 4)),
        ObjlogOptions.defaults(), ReaderOptions.defaults());
    closeables.add(streams);
    return streams;
  }

  private ObjlogTemplate template(ObjlogStreams streams) {
    ObjlogTemplate template = new ObjlogTemplate(streams,
        Map.of("orders", new StreamWriterSettings(PartitionSet.all(4), FAST, false,
            new WriterLeaseSettings(TTL, Duration.ofMillis(20)))),
        new DefaultRecordValueConverter(null), Clock.systemUTC(), new StoreActivity(),
        repository.leaseStore());
    closeables.add(template);
    return template;
  }

  private ObjlogTemplate templateHoldingAll(ObjlogStreams streams) {
    ObjlogTemplate template = template(streams);
    awaitTrue(() -> template.writablePartitions("orders").isAll());
    return template;
  }

  @Test
  void aPartitionLeasedElsewhereIsNotWrittenUntilThatLeaseExpires() throws Exception {
    assertThat(repository.leaseStore().tryAcquire(PARTITION_1, "crashed-instance", TTL).granted()).isTrue();
    ObjlogTemplate template = template(streams());

    awaitTrue(() -> template.writablePartitions("orders").size() == 3);
    assertThat(template.writablePartitions("orders")).hasToString("0,2-3");
    assertThatThrownBy(() -> template.send("orders", 1, "x"))
        .isInstanceOf(PartitionNotWritableException.class)
        .hasMessageContaining("does not hold the writer lease of partition 1 of stream 'orders'")
        .hasMessageContaining("it holds \"0,2-3\"");
    for (String key : List.of("a", "b", "c", "d", "e", "f")) {
      assertThat(template.send("orders", key, "v").get(30, TimeUnit.SECONDS).partition()).isNotEqualTo(1);
    }

    leaseClock.advance(TTL.toMillis() + 1); // the crashed instance never renews
    awaitTrue(() -> template.writablePartitions("orders").isAll());
    assertThat(template.send("orders", 1, "x").get(30, TimeUnit.SECONDS).partition()).isEqualTo(1);
  }

  @Test
  void aLeaseTakenOverClosesThatPartitionsWriterAndARetakenOneWritesAgain() throws Exception {
    ObjlogStreams streams = streams();
    ObjlogTemplate template = templateHoldingAll(streams);
    template.send("orders", 1, "x").get(30, TimeUnit.SECONDS);
    assertThat(template.writerStatus("orders", 1).state()).isEqualTo(LocalWriterStatus.State.OPEN);

    // Another instance's writer fences the template's out, and that instance, after the template
    // stalled past its ttl (the clock jumps), takes the expired lease before the template's next
    // renewal, which is then refused.
    streams.log("orders").openWriter(1).close();
    assertThatThrownBy(() -> template.send("orders", 1, "fenced").get(30, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(StaleWriterException.class);
    do {
      leaseClock.advance(TTL.toMillis() + 1);
    } while (!repository.leaseStore().tryAcquire(PARTITION_1, "other-instance", TTL).granted());

    awaitTrue(() -> !template.writablePartitions("orders").contains(1));
    // the writer closes on the hand-over thread, after the partition stopped taking sends
    awaitTrue(() -> template.writerStatus("orders", 1).state() == LocalWriterStatus.State.NOT_WRITTEN_HERE);
    LocalWriterStatus status = template.writerStatus("orders", 1);
    assertThat(status.state()).isEqualTo(LocalWriterStatus.State.NOT_WRITTEN_HERE);
    assertThat(status.writer()).isNotNull();
    assertThat(status.writer().closed()).isTrue();
    assertThatThrownBy(() -> template.send("orders", 1, "y")).isInstanceOf(PartitionNotWritableException.class);

    // The other instance goes away without releasing: once its lease expires the template takes
    // the partition back and writes it with a new writer, whatever happened to the old one.
    leaseClock.advance(TTL.toMillis() + 1);
    awaitTrue(() -> template.writablePartitions("orders").contains(1));
    assertThat(template.send("orders", 1, "back").get(30, TimeUnit.SECONDS).partition()).isEqualTo(1);
  }

  @Test
  void theCatalogFenceStillRejectsAWriterWhoseLeaseWasBypassed() throws Exception {
    ObjlogStreams streams = streams();
    ObjlogTemplate template = templateHoldingAll(streams);
    template.send("orders", 2, "before").get(30, TimeUnit.SECONDS);

    // A writer that ignores the leases (another process opening the partition directly) fences it.
    try (PartitionWriter bypassing = streams.log("orders").openWriter(2)) {
      assertThat(template.writablePartitions("orders").contains(2)).as("the lease is still held").isTrue();
      assertThatThrownBy(() -> template.send("orders", 2, "after").get(30, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasCauseInstanceOf(StaleWriterException.class);
    }
  }

  @Test
  void closingReleasesTheLeasesForOthersAtOnce() {
    ObjlogStreams streams = streams();
    ObjlogTemplate first = templateHoldingAll(streams);
    ObjlogTemplate second = template(streams);
    awaitTrue(() -> first.writablePartitions("orders").size() == 2 && second.writablePartitions("orders").size() == 2);
    assertThat(first.writablePartitions("orders").stream().filter(second.writablePartitions("orders")::contains))
        .as("disjoint").isEmpty();

    first.close();
    awaitTrue(() -> second.writablePartitions("orders").isAll()); // no clock move: released, not expired
    assertThat(repository.leaseStore().current(PARTITION_1).orElseThrow().owner()).isEqualTo(second.writerLeaseOwner().orElseThrow());
  }

  private static void awaitTrue(BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition within 30s").isLessThan(deadline);
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
