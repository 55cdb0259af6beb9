package dev.objlog.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionWriter;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.replica.ConsumerRegistry;
import dev.objlog.replica.CursorStore;
import dev.objlog.store.memory.MemoryObjectStore;
import dev.objlog.testing.MutableTicker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link UntilConsumedRetention}: what it requests, what it reports about who holds it back. */
class UntilConsumedRetentionTests {
  private static final int P = 0;
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final MutableTicker ticker = new MutableTicker();
  private final List<String> warnings = new ArrayList<>();
  private Objlog log;
  private PartitionWriter writer;

  @BeforeEach
  void open() {
    log = Objlog.open(new MemoryObjectStore(), "tests/until-consumed",
        ObjlogOptions.builder().meterRegistry(meters).ticker(ticker).build());
    writer = log.openWriter(P);
    for (int i = 0; i < 10; i++) { // ten one-record segments
      writer.append(LogRecord.of(1, "r" + i));
      writer.flush();
    }
  }

  @AfterEach
  void close() {
    writer.close();
    log.close();
  }

  @Test
  void advancesToTheLowestFloorMinusTheKeepWindowAndNoFurtherThanTheSnapshot() {
    ConsumerRegistry registry = ConsumerRegistry.on(log);
    registry.publish("a", P, 8);
    registry.publish("b", P, 6);
    UntilConsumedRetention policy = UntilConsumedRetention.builder(log, registry).keepRecords(1).build();
    assertThat(policy.run(P).request().orElseThrow().beforeLsn()).isEqualTo(5);
    assertThat(writer.applyRetention().oldestLsn()).isEqualTo(5);
    assertThat(policy.run(P).request()).as("nothing further to ask").isEmpty();

    log.recordSnapshot(P, 5, "snap/5");
    registry.publish("b", P, 10);
    registry.publish("a", P, 10);
    assertThat(policy.run(P).allowedBefore()).as("not beyond the snapshot's replay LSN").contains(6L);
    writer.applyRetention();
    assertThat(log.head(P).orElseThrow().oldestLsn()).isEqualTo(6);
  }

  @Test
  void withoutRegisteredConsumersItKeepsEverything() {
    UntilConsumedRetention policy = UntilConsumedRetention.builder(log, p -> List.of()).build();
    UntilConsumedRetention.Outcome outcome = policy.run(P);
    assertThat(outcome.allowedBefore()).isEmpty();
    assertThat(outcome.request()).isEmpty();
    assertThat(log.retentionRequest(P)).isEmpty();
  }

  @Test
  void aSilentConsumerHoldsRetentionAndIsReportedByGaugesAndOneWarning() {
    ConsumerRegistry registry = ConsumerRegistry.on(log);
    registry.publish("fast", P, 10);
    registry.publish("stuck", P, 3);
    UntilConsumedRetention policy = UntilConsumedRetention.builder(log, registry)
        .warnAfter(Duration.ofMinutes(5)).warnings(warnings::add).build();
    policy.run(P);
    ticker.advance(Duration.ofMinutes(6));
    UntilConsumedRetention.Outcome outcome = policy.run(P);
    policy.run(P);

    UntilConsumedRetention.Holder holder = outcome.heldBy().orElseThrow();
    assertThat(holder.consumer()).isEqualTo("stuck");
    assertThat(holder.beforeLsn()).isEqualTo(3);
    assertThat(holder.heldFor()).isEqualTo(Duration.ofMinutes(6));
    long segmentBytes = log.segments(P, 3, 7).orElseThrow().segments().stream().mapToLong(s -> s.sizeBytes()).sum();
    assertThat(holder.heldBytes()).as("LSNs 3..9, which retention would trim without it").isEqualTo(segmentBytes);
    assertThat(meters.get("objlog.retention.consumer.held.seconds").tag("partition", "0").gauge().value())
        .isEqualTo(360);
    assertThat(meters.get("objlog.retention.consumer.held.bytes").tag("partition", "0").gauge().value())
        .isEqualTo(segmentBytes);
    assertThat(warnings).hasSize(1);
    assertThat(warnings.get(0)).contains("'stuck'", "LSN 3", "without limit");
    assertThat(outcome.allowedBefore()).as("held by default, never expired").contains(3L);

    registry.publish("stuck", P, 10);
    assertThat(policy.run(P).heldBy()).isEmpty();
    assertThat(meters.get("objlog.retention.consumer.held.seconds").tag("partition", "0").gauge().value()).isZero();
  }

  @Test
  void expiryIsOptInAndLetsRetentionPassASilentConsumer() {
    ConsumerRegistry registry = ConsumerRegistry.on(log);
    registry.publish("fast", P, 10); // caught up: it holds nothing and never expires
    CursorStore slow = CursorStore.inBucket(log, "slow");
    slow.save(CursorCheckpoint.of(log.streamId(), P, 2), CursorStore.Version.ABSENT);
    UntilConsumedRetention policy = UntilConsumedRetention.builder(log, registry.and(ConsumerFloors.inBucket(log)))
        .expireAfter(Duration.ofHours(1)).warnings(warnings::add).build();
    assertThat(policy.run(P).allowedBefore()).contains(2L);
    ticker.advance(Duration.ofHours(1));
    UntilConsumedRetention.Outcome outcome = policy.run(P);
    assertThat(outcome.expired()).containsExactly("slow");
    assertThat(outcome.allowedBefore()).contains(10L);
    assertThat(warnings).anySatisfy(w -> assertThat(w).contains("'slow'", "no longer holds retention"));
    try (var hold = log.holdRetention(policy.gate())) {
      writer.applyRetention();
      assertThat(log.head(P).orElseThrow().oldestLsn()).as("the writer honours the same expiry").isEqualTo(10);
    }
  }

  @Test
  void bucketFloorsListEveryConsumerCheckpointOfThePartition() {
    CursorStore.inBucket(log, "a").save(CursorCheckpoint.of(log.streamId(), P, 4), CursorStore.Version.ABSENT);
    CursorStore.inBucket(log, "b").save(CursorCheckpoint.of(log.streamId(), P, 7), CursorStore.Version.ABSENT);
    CursorStore.inBucket(log, "b").load(1); // another partition has none
    assertThat(ConsumerFloors.inBucket(log).floors(P)).containsExactly(
        new ConsumerFloors.ConsumerFloor("a", P, 4), new ConsumerFloors.ConsumerFloor("b", P, 7));
    assertThat(ConsumerFloors.inBucket(log).floors(1)).isEmpty();
  }
}
