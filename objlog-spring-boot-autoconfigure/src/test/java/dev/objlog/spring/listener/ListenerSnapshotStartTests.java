package dev.objlog.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.PartitionWriter;
import dev.objlog.SnapshotMarker;
import dev.objlog.WriterOptions;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.replica.SnapshotStore;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogHeaders;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.listener.checkpoint.CheckpointKey;
import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import dev.objlog.spring.listener.checkpoint.CheckpointVersion;
import dev.objlog.spring.listener.checkpoint.InMemoryCheckpointRepository;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.messaging.handler.annotation.Header;

/**
 * Listeners that start from a snapshot: an expired checkpoint with {@code
 * checkpoint-errors.expired=snapshot}, the start position {@code snapshot}, and a bean that cannot
 * take a snapshot failing at startup. Waits are bounded; nothing asserts on timing.
 */
class ListenerSnapshotStartTests {
  private static final long WAIT = 30;
  static final BlockingQueue<String> events = new LinkedBlockingQueue<>();

  @TempDir Path root;
  private final InMemoryCheckpointRepository checkpoints = new InMemoryCheckpointRepository();

  private ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
            ObjlogStreamsAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class,
            ObjlogListenerAutoConfiguration.class))
        .withBean(CheckpointRepository.class, () -> checkpoints)
        .withPropertyValues(
            "objlog.store.type=filesystem",
            "objlog.store.filesystem.root=" + root,
            "objlog.streams.orders.partitions=1",
            "objlog.listener.poll-interval=1h");
  }

  private static String take() throws InterruptedException {
    String event = events.poll(WAIT, TimeUnit.SECONDS);
    assertThat(event).as("an event within %ss", WAIT).isNotNull();
    return event;
  }

  /**
   * Writes {@code count} records to partition 0, publishes a snapshot through LSN 5 and lets
   * retention trim below it (held there by the snapshot gate).
   */
  private SnapshotMarker prepareTrimmedLogWithSnapshot(int count) {
    SnapshotMarker[] marker = new SnapshotMarker[1];
    runner().run(context -> {
      Objlog log = context.getBean(ObjlogStreams.class).log("orders");
      try (PartitionWriter writer = log.openWriter(0,
          WriterOptions.builder().batch(Duration.ofHours(1), 64L << 20, 1).build())) {
        for (int i = 0; i < count; i++) {
          writer.append(LogRecord.of(i, "r" + i));
        }
        writer.flush();
        marker[0] = SnapshotStore.inBucket(log.store()).publish(log, 0, 5,
            "state through r5".getBytes(StandardCharsets.UTF_8));
        log.requestRetention(0, 1, count, log.snapshotGate());
        writer.applyRetention();
        assertThat(log.head(0).orElseThrow().oldestLsn()).isEqualTo(6);
      }
    });
    return marker[0];
  }

  static class SnapshotListener implements SnapshotAwareListener {
    @ObjlogListener(id = "${test.listener-id:state}", stream = "orders", startPosition = "${test.start:earliest}")
    void on(String value, @Header(ObjlogHeaders.LSN) long lsn) {
      events.add("record " + lsn + " " + value);
    }

    @Override
    public void onSnapshot(ListenerSnapshot snapshot) {
      events.add("snapshot " + snapshot.listenerId() + " " + snapshot.streamName() + "/" + snapshot.partition()
          + " through " + snapshot.marker().throughLsn() + ": " + new String(snapshot.payload(), StandardCharsets.UTF_8));
    }
  }

  @Test
  void anExpiredCheckpointStartsFromTheSnapshotWhenConfigured() throws Exception {
    events.clear();
    SnapshotMarker marker = prepareTrimmedLogWithSnapshot(8);
    checkpoints.save(CheckpointKey.of("state", "orders", 0), CursorCheckpoint.of("orders", 0, 2), CheckpointVersion.ABSENT);
    runner().withBean(SnapshotListener.class)
        .withPropertyValues("objlog.listener.checkpoint-errors.expired=snapshot")
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(take()).isEqualTo("snapshot state orders/0 through 5: state through r5");
          assertThat(take()).isEqualTo("record 6 r6");
          assertThat(take()).isEqualTo("record 7 r7");
          assertThat(context.getBean(ObjlogListenerEndpointRegistry.class).isInExpectedState("state")).isTrue();
        });
    assertThat(checkpoints.load(CheckpointKey.of("state", "orders", 0)).orElseThrow().checkpoint().nextLsn())
        .isEqualTo(8);
    assertThat(marker.replayFromLsn()).isEqualTo(6);
  }

  @Test
  void theSnapshotStartPositionHandsTheSnapshotOverBeforeTheFirstRecord() throws Exception {
    events.clear();
    prepareTrimmedLogWithSnapshot(7);
    runner().withBean(SnapshotListener.class).withPropertyValues("test.start=snapshot", "test.listener-id=fresh")
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(take()).isEqualTo("snapshot fresh orders/0 through 5: state through r5");
          assertThat(take()).isEqualTo("record 6 r6");
        });
  }

  @Test
  void anExpiredCheckpointWithoutASnapshotStopsThePartition() throws Exception {
    events.clear();
    runner().run(context -> {
      Objlog log = context.getBean(ObjlogStreams.class).log("orders");
      try (PartitionWriter writer = log.openWriter(0,
          WriterOptions.builder().batch(Duration.ofHours(1), 64L << 20, 1).build())) {
        for (int i = 0; i < 4; i++) {
          writer.append(LogRecord.of(i, "r" + i));
        }
        writer.flush();
        log.requestRetention(0, 1, 3);
        writer.applyRetention();
      }
    });
    checkpoints.save(CheckpointKey.of("state", "orders", 0), CursorCheckpoint.of("orders", 0, 1), CheckpointVersion.ABSENT);
    runner().withBean(SnapshotListener.class)
        .withPropertyValues("objlog.listener.checkpoint-errors.expired=snapshot")
        .run(context -> {
          ObjlogListenerEndpointRegistry registry = context.getBean(ObjlogListenerEndpointRegistry.class);
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT);
          while (registry.isInExpectedState("state") && System.nanoTime() < deadline) {
            Thread.sleep(5);
          }
          assertThat(registry.getListenerContainer("state").getPartitionStatuses().get(0).failure())
              .contains("has no snapshot");
        });
    assertThat(events).isEmpty();
  }

  static class PlainListener {
    @ObjlogListener(id = "plain", stream = "orders", startPosition = "snapshot")
    void on(String value) {}
  }

  @Test
  void aListenerThatStartsFromASnapshotWithoutTakingOneFailsAtStartup() {
    runner().withBean(PlainListener.class).run(context -> assertThat(context).hasFailed()
        .getFailure().hasStackTraceContaining("does not implement SnapshotAwareListener"));
  }
}
