package dev.objlog.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.read.CursorCheckpoint;
import dev.objlog.read.ReadRecord;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogHeaders;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.listener.checkpoint.CheckpointKey;
import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import dev.objlog.spring.listener.checkpoint.CheckpointVersion;
import dev.objlog.spring.listener.checkpoint.InMemoryCheckpointRepository;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import dev.objlog.spring.listener.checkpoint.StoredCheckpoint;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.util.backoff.FixedBackOff;

/**
 * Listeners on a filesystem store with an hour-long poll interval, so every delivery here comes
 * from the local wake-up of a commit in this JVM. Waits are bounded; nothing asserts on timing.
 */
class ObjlogListenerTests {
  private static final long WAIT = 30;

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
            "objlog.streams.orders.partitions=2",
            "objlog.streams.orders.writer.batch.max-delay=1ms",
            "objlog.streams.dlt.partitions=1",
            "objlog.streams.dlt.writer.batch.max-delay=1ms",
            "objlog.listener.poll-interval=1h",
            "objlog.listener.back-off.interval=0",
            "objlog.listener.back-off.max-retries=2");
  }

  static final BlockingQueue<String> received = new LinkedBlockingQueue<>();

  private static String take() throws InterruptedException {
    String value = received.poll(WAIT, TimeUnit.SECONDS);
    assertThat(value).as("a record within %ss", WAIT).isNotNull();
    return value;
  }

  private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition within %ss", WAIT).isLessThan(deadline);
      Thread.sleep(5);
    }
  }

  private @Nullable Long checkpoint(String owner, int partition) {
    Optional<StoredCheckpoint> c = checkpoints.load(CheckpointKey.of(owner, "orders", partition));
    return c.map(s -> s.checkpoint().nextLsn()).orElse(null);
  }

  static class RecordListener {
    @ObjlogListener(id = "${test.listener-id:records}", stream = "orders")
    void on(String value, @Header(ObjlogHeaders.PARTITION) int partition, @Header(ObjlogHeaders.LSN) long lsn,
        @Header(ObjlogHeaders.STREAM) String stream) {
      received.add(stream + "/" + partition + "@" + lsn + "=" + value);
    }
  }

  @Test
  void recordsSentInThisJvmReachTheListenerAndRestartResumesAfterTheCheckpoint() throws Exception {
    received.clear();
    runner().withBean(RecordListener.class).run(context -> {
      assertThat(context).hasNotFailed();
      ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
      template.send("orders", 0, "a").get(WAIT, TimeUnit.SECONDS);
      template.send("orders", 1, "b").get(WAIT, TimeUnit.SECONDS);
      template.send("orders", 0, "c").get(WAIT, TimeUnit.SECONDS);
      List<String> got = new ArrayList<>(List.of(take(), take(), take()));
      assertThat(got).containsExactlyInAnyOrder("orders/0@0=a", "orders/1@0=b", "orders/0@1=c");
      awaitTrue(() -> Long.valueOf(2).equals(checkpoint("records", 0)));
      assertThat(checkpoint("records", 1)).isEqualTo(1);
      assertThat(context.getBean(ObjlogListenerEndpointRegistry.class).isInExpectedState("records")).isTrue();
    });
    assertThat(received).isEmpty();
    runner().withBean(RecordListener.class).run(context -> {
      context.getBean(ObjlogTemplate.class).send("orders", 0, "d").get(WAIT, TimeUnit.SECONDS);
      assertThat(take()).isEqualTo("orders/0@2=d");
      assertThat(received.poll()).isNull();
    });
  }

  @Test
  void aListenerWithoutCheckpointStartsAtLatestWhenAskedAndPlaceholdersResolve() throws Exception {
    received.clear();
    runner().withPropertyValues("objlog.listener.start-position=latest", "test.listener-id=latest")
        .run(context -> {
          // records before the listener: written by a context without it
          context.getBean(ObjlogTemplate.class).send("orders", 0, "old").get(WAIT, TimeUnit.SECONDS);
        });
    runner().withBean(RecordListener.class)
        .withPropertyValues("objlog.listener.start-position=latest", "test.listener-id=latest")
        .run(context -> {
          assertThat(context.getBean(ObjlogListenerEndpointRegistry.class).getListenerContainerIds())
              .containsExactly("latest");
          context.getBean(ObjlogTemplate.class).send("orders", 0, "new").get(WAIT, TimeUnit.SECONDS);
          assertThat(take()).isEqualTo("orders/0@1=new");
        });
  }

  record Order(String id, int amount) {}

  static class JsonBatchListener {
    final BlockingQueue<List<Order>> batches = new LinkedBlockingQueue<>();

    @ObjlogListener(id = "json", stream = "orders", partitions = "1", batch = "true", checkpointMode = "BATCH")
    void on(List<Order> orders) {
      batches.add(orders);
    }
  }

  @Test
  void batchListenersGetConvertedJsonListsAndCheckpointPerBatch() throws Exception {
    runner().withBean(JsonBatchListener.class).run(context -> {
      ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
      template.send("orders", 1, new Order("o1", 3)).get(WAIT, TimeUnit.SECONDS);
      template.send("orders", 1, new Order("o2", 4)).get(WAIT, TimeUnit.SECONDS);
      JsonBatchListener listener = context.getBean(JsonBatchListener.class);
      List<Order> all = new ArrayList<>();
      while (all.size() < 2) {
        List<Order> batch = listener.batches.poll(WAIT, TimeUnit.SECONDS);
        assertThat(batch).isNotNull();
        all.addAll(batch);
      }
      assertThat(all).containsExactly(new Order("o1", 3), new Order("o2", 4));
      awaitTrue(() -> Long.valueOf(2).equals(checkpoint("json", 1)));
    });
  }

  static class CountListener {
    @ObjlogListener(id = "count", stream = "orders", partitions = "0", checkpointMode = "COUNT", ackCount = "2")
    void on(String value) {
      received.add(value);
    }
  }

  @Test
  void countModeSavesEveryAckCountRecordsAndOnStop() throws Exception {
    received.clear();
    runner().withBean(CountListener.class).run(context -> {
      ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
      for (String v : List.of("1", "2", "3")) {
        template.send("orders", 0, v).get(WAIT, TimeUnit.SECONDS);
      }
      assertThat(List.of(take(), take(), take())).containsExactly("1", "2", "3");
      assertThat(checkpoint("count", 0)).isEqualTo(2);
      context.getBean(ObjlogListenerEndpointRegistry.class).stop("count");
      assertThat(checkpoint("count", 0)).isEqualTo(3);
    });
  }

  static class TimeListener {
    @ObjlogListener(id = "time", stream = "orders", partitions = "0", checkpointMode = "TIME", ackTime = "1h")
    void on(String value) {
      received.add(value);
    }
  }

  @Test
  void timeModeSavesWhenTheTimePassedAndOnStop() throws Exception {
    received.clear();
    runner().withBean(TimeListener.class).run(context -> {
      context.getBean(ObjlogTemplate.class).send("orders", 0, "1").get(WAIT, TimeUnit.SECONDS);
      assertThat(take()).isEqualTo("1");
      assertThat(checkpoint("time", 0)).isNull();
      context.getBean(ObjlogListenerEndpointRegistry.class).stop("time");
      assertThat(checkpoint("time", 0)).isEqualTo(1);
    });
  }

  static class ManualListener {
    @ObjlogListener(id = "manual", stream = "orders", partitions = "0", checkpointMode = "MANUAL")
    void on(String value, Acknowledgment ack) {
      if (value.startsWith("ack")) {
        ack.acknowledge();
      }
      received.add(value);
    }
  }

  @Test
  void manualModeSavesOnlyWhenAcknowledged() throws Exception {
    received.clear();
    runner().withBean(ManualListener.class).run(context -> {
      ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
      for (String v : List.of("a", "ack-b", "c")) {
        template.send("orders", 0, v).get(WAIT, TimeUnit.SECONDS);
      }
      assertThat(List.of(take(), take(), take())).containsExactly("a", "ack-b", "c");
      assertThat(checkpoint("manual", 0)).isEqualTo(2);
      context.getBean(ObjlogListenerEndpointRegistry.class).stop("manual");
      assertThat(checkpoint("manual", 0)).isEqualTo(2);
    });
  }

  static class FailingListener {
    final AtomicInteger attempts = new AtomicInteger();

    @ObjlogListener(id = "failing", stream = "orders", partitions = "0")
    void on(String value) {
      if (value.equals("bad")) {
        attempts.incrementAndGet();
        throw new IllegalStateException("cannot handle " + value);
      }
      received.add(value);
    }
  }

  @Test
  void byDefaultAFailingRecordIsRetriedThenThePartitionStopsBeforeIt() throws Exception {
    received.clear();
    runner().withBean(FailingListener.class).run(context -> {
      ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
      for (String v : List.of("ok", "bad", "after")) {
        template.send("orders", 0, v).get(WAIT, TimeUnit.SECONDS);
      }
      assertThat(take()).isEqualTo("ok");
      ObjlogListenerEndpointRegistry registry = context.getBean(ObjlogListenerEndpointRegistry.class);
      awaitTrue(() -> !registry.isInExpectedState("failing"));
      ObjlogListenerContainer container = registry.getListenerContainer("failing");
      assertThat(container.getState()).isEqualTo("FAILED");
      assertThat(container.getPartitionStatuses().get(0).state())
          .isEqualTo(ObjlogListenerContainer.PartitionState.FAILED);
      assertThat(context.getBean(FailingListener.class).attempts).hasValue(3);
      assertThat(checkpoint("failing", 0)).isEqualTo(1);
      assertThat(received.poll()).isNull(); // "after" is never reached: nothing is skipped
    });
  }

  @Configuration(proxyBeanMethods = false)
  static class DeadLetters {
    @Bean
    ListenerErrorHandler deadLetterHandler(ObjlogTemplate template) {
      return new DefaultListenerErrorHandler(new FixedBackOff(0, 1), new DeadLetterRecoverer(template, "dlt"));
    }
  }

  @Test
  void aRecovererSendsTheFailedRecordToTheDeadLetterStreamAndTheListenerGoesOn() throws Exception {
    received.clear();
    runner().withUserConfiguration(DeadLetters.class).withBean(FailingListener.class).run(context -> {
      ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
      for (String v : List.of("ok", "bad", "after")) {
        template.send("orders", 0, v).get(WAIT, TimeUnit.SECONDS);
      }
      assertThat(List.of(take(), take())).containsExactly("ok", "after");
      assertThat(context.getBean(FailingListener.class).attempts).hasValue(2);
      awaitTrue(() -> Long.valueOf(3).equals(checkpoint("failing", 0)));
      List<ReadRecord> dead = context.getBean(ObjlogStreams.class).reader("dlt").partition(0).read(0, 10).records();
      assertThat(dead).hasSize(1);
      ReadRecord letter = dead.get(0);
      assertThat(letter.valueAsString()).isEqualTo("bad");
      Map<String, String> headers = new java.util.HashMap<>();
      letter.headers().forEach(h -> headers.put(h.keyAsString(), h.valueAsString()));
      assertThat(headers).containsEntry("objlog_dlt_listener", "failing")
          .containsEntry("objlog_dlt_stream", "orders")
          .containsEntry("objlog_dlt_partition", "0")
          .containsEntry("objlog_dlt_lsn", "1")
          .containsEntry("objlog_dlt_exception", IllegalStateException.class.getName())
          .containsEntry("objlog_dlt_message", "cannot handle bad")
          .containsEntry("objlog_dlt_attempts", "2");
      assertThat(context.getBean(ObjlogListenerEndpointRegistry.class).isInExpectedState("failing")).isTrue();
    });
  }

  static class BatchFailing {
    final List<List<String>> calls = new java.util.concurrent.CopyOnWriteArrayList<>();

    @ObjlogListener(id = "batchfail", stream = "orders", partitions = "0", batch = "true")
    void on(List<String> values) {
      calls.add(List.copyOf(values));
      for (int i = 0; i < values.size(); i++) {
        if (values.get(i).equals("bad")) {
          throw new BatchListenerFailedException("bad element", new IllegalStateException("bad"), i);
        }
        received.add(values.get(i));
      }
    }
  }

  @Test
  void aBatchListenerPointsAtTheFailingElementAndOnlyThatOneIsDeadLettered() throws Exception {
    received.clear();
    runner().withUserConfiguration(DeadLetters.class).withBean(BatchFailing.class).run(context -> {
      ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
      // one durable batch: all three in one segment
      var f1 = template.send("orders", 0, "x");
      var f2 = template.send("orders", 0, "bad");
      var f3 = template.send("orders", 0, "y");
      f1.get(WAIT, TimeUnit.SECONDS);
      f2.get(WAIT, TimeUnit.SECONDS);
      f3.get(WAIT, TimeUnit.SECONDS);
      List<String> got = new ArrayList<>();
      while (!got.contains("y")) {
        got.add(take());
      }
      assertThat(got).containsOnlyOnce("x").contains("y").doesNotContain("bad");
      awaitTrue(() -> Long.valueOf(3).equals(checkpoint("batchfail", 0)));
      List<ReadRecord> dead = context.getBean(ObjlogStreams.class).reader("dlt").partition(0).read(0, 10).records();
      assertThat(dead).extracting(ReadRecord::valueAsString).containsExactly("bad");
      assertThat(dead.get(0).headers()).anySatisfy(h -> {
        assertThat(h.keyAsString()).isEqualTo("objlog_dlt_message");
        assertThat(h.valueAsString()).isEqualTo("bad");
      });
    });
  }

  @Test
  void theRegistryPausesAndResumesAListener() throws Exception {
    received.clear();
    runner().withBean(RecordListener.class).run(context -> {
      ObjlogListenerEndpointRegistry registry = context.getBean(ObjlogListenerEndpointRegistry.class);
      ObjlogListenerContainer container = registry.getListenerContainer("records");
      registry.pause("records");
      awaitTrue(container::isPaused);
      assertThat(container.getState()).isEqualTo("PAUSED");
      context.getBean(ObjlogTemplate.class).send("orders", 0, "while-paused").get(WAIT, TimeUnit.SECONDS);
      assertThat(received.poll()).isNull(); // every partition thread is parked
      registry.resume("records");
      assertThat(take()).isEqualTo("orders/0@0=while-paused");
      registry.stop("records");
      assertThat(container.isRunning()).isFalse();
      assertThat(registry.isInExpectedState("records")).isTrue();
      assertThat(container.getState()).isEqualTo("STOPPED");
      registry.start("records");
      context.getBean(ObjlogTemplate.class).send("orders", 0, "after-restart").get(WAIT, TimeUnit.SECONDS);
      assertThat(take()).isEqualTo("orders/0@1=after-restart");
    });
  }

  @Test
  void aCheckpointAheadOfThePartitionFailsThePartitionByDefault() throws Exception {
    received.clear();
    String streamId = "orders";
    checkpoints.save(CheckpointKey.of("records", "orders", 0), CursorCheckpoint.of(streamId, 0, 100),
        CheckpointVersion.ABSENT);
    runner().withBean(RecordListener.class).run(context -> {
      ObjlogListenerEndpointRegistry registry = context.getBean(ObjlogListenerEndpointRegistry.class);
      awaitTrue(() -> !registry.isInExpectedState("records"));
      assertThat(registry.getListenerContainer("records").getPartitionStatuses().get(0).failure())
          .contains("checkpoint ahead");
      assertThat(checkpoint("records", 0)).isEqualTo(100);
    });
  }

  @Test
  void aCheckpointAheadRestartsAtEarliestWhenConfigured() throws Exception {
    received.clear();
    checkpoints.save(CheckpointKey.of("records", "orders", 0), CursorCheckpoint.of("orders", 0, 100),
        CheckpointVersion.ABSENT);
    runner().withBean(RecordListener.class)
        .withPropertyValues("objlog.listener.checkpoint-errors.ahead=earliest")
        .run(context -> {
          context.getBean(ObjlogTemplate.class).send("orders", 0, "a").get(WAIT, TimeUnit.SECONDS);
          assertThat(take()).isEqualTo("orders/0@0=a");
          assertThat(context.getBean(ObjlogListenerEndpointRegistry.class).isInExpectedState("records")).isTrue();
        });
  }

  @Test
  void aCheckpointOfAnotherStreamIdIsAMismatch() throws Exception {
    received.clear();
    checkpoints.save(CheckpointKey.of("records", "orders", 0), CursorCheckpoint.of("other/stream", 0, 0),
        CheckpointVersion.ABSENT);
    runner().withBean(RecordListener.class).run(context -> {
      ObjlogListenerEndpointRegistry registry = context.getBean(ObjlogListenerEndpointRegistry.class);
      awaitTrue(() -> !registry.isInExpectedState("records"));
      assertThat(registry.getListenerContainer("records").getPartitionStatuses().get(0).failure())
          .contains("checkpoint mismatch");
    });
  }

  static class AckWithoutManual {
    @ObjlogListener(id = "wrong", stream = "orders")
    void on(String value, Acknowledgment ack) {}
  }

  @Test
  void anAcknowledgmentWithoutManualModeFailsStartup() {
    runner().withBean(AckWithoutManual.class).run(context ->
        assertThat(context).getFailure().hasMessageContaining("set checkpointMode = \"MANUAL\""));
  }
}
