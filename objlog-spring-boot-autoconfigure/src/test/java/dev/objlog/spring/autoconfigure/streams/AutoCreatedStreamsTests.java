package dev.objlog.spring.autoconfigure.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionWriter;
import dev.objlog.RetentionResult;
import dev.objlog.spring.autoconfigure.FailureAnalyses;
import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import dev.objlog.spring.autoconfigure.lifecycle.ObjlogLifecycleAutoConfiguration;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.core.SendResult;
import dev.objlog.spring.core.StreamAutoCreator;
import dev.objlog.spring.core.StreamPartitionsException;
import dev.objlog.spring.core.UnknownStreamException;
import dev.objlog.spring.lifecycle.ObjlogMaintenance;
import dev.objlog.spring.listener.ObjlogListener;
import dev.objlog.spring.listener.ObjlogListenerAutoConfiguration;
import dev.objlog.spring.listener.checkpoint.BucketCheckpointRepository;
import dev.objlog.spring.listener.checkpoint.CheckpointKey;
import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.messaging.handler.annotation.Header;

/**
 * Streams used by name without being configured: off by default (a typo is an
 * UnknownStreamException), and with objlog.defaults.auto-create on, opened with the partition count
 * recorded in the bucket, on which every instance agrees. Each context is one instance on the same
 * filesystem store; the writer leases, listeners (with a group) and retention work on such streams.
 */
class AutoCreatedStreamsTests {
  private static final int WAIT = 30;

  @TempDir Path root;

  private ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
            ObjlogStreamsAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class,
            ObjlogListenerAutoConfiguration.class, ObjlogLifecycleAutoConfiguration.class))
        .withPropertyValues(
            "objlog.store.filesystem.root=" + root,
            "objlog.streams.orders.partitions=2",
            "objlog.defaults.writer.batch.max-delay=1ms",
            "objlog.listener.poll-interval=1h");
  }

  private ApplicationContextRunner autoCreating(String... more) {
    return runner().withPropertyValues("objlog.defaults.auto-create=true").withPropertyValues(more);
  }

  @Test
  void offByDefaultAStreamNameThatIsNotConfiguredIsUnknown() {
    runner().run(context -> {
      assertThat(context).hasNotFailed();
      ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
      assertThatThrownBy(() -> template.send("ordres", 0, "typo"))
          .isInstanceOf(UnknownStreamException.class).hasMessageContaining("'ordres'");
      assertThat(context.getBean(ObjlogStreams.class).names()).containsExactly("orders");
    });
    assertThat(store().list("", 100).entries()).noneMatch(e -> e.key().endsWith(StreamAutoCreator.RECORD_NAME));
  }

  @Test
  void aNewStreamGetsTheDefaultCountRecordedAndEveryInstanceAgrees() {
    autoCreating("objlog.defaults.partitions=3").run(context -> {
      assertThat(context).hasNotFailed();
      ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
      SendResult sent = template.send("events", 2, "first").get(WAIT, TimeUnit.SECONDS);
      assertThat(sent.partition()).isEqualTo(2);
      assertThat(context.getBean(ObjlogStreams.class).stream("events").partitions()).isEqualTo(3);
      assertThat(context.getBean(ObjlogStreams.class).names()).containsExactly("orders", "events");
    });
    String record = new String(store().get(recordKey("events")).bytes(), StandardCharsets.UTF_8);
    assertThat(record).matches("\\{\"version\":1,\"stream_id\":\"events\",\"partitions\":3,\"created_unix_ms\":\\d+}");

    // Another instance without a configured count takes the recorded one.
    autoCreating().run(context -> {
      assertThat(context.getBean(ObjlogStreams.class).stream("events").partitions()).isEqualTo(3);
      assertThat(context.getBean(ObjlogStreams.class).log("events").head(2).orElseThrow().nextLsn()).isEqualTo(1);
    });
    // One configured with another count is refused, and the record is left as it was.
    autoCreating("objlog.defaults.partitions=4").run(context -> {
      assertThatThrownBy(() -> context.getBean(ObjlogTemplate.class).send("events", 0, "x"))
          .isInstanceOf(StreamPartitionsException.class)
          .hasMessageContaining("stream 'events' has 3 partitions")
          .hasMessageContaining("objlog.defaults.partitions says 4");
    });
    assertThat(new String(store().get(recordKey("events")).bytes(), StandardCharsets.UTF_8)).isEqualTo(record);
  }

  @Test
  void withoutAConfiguredCountANewStreamHasOnePartition() {
    autoCreating().run(context -> {
      context.getBean(ObjlogTemplate.class).send("solo", "key", "v").get(WAIT, TimeUnit.SECONDS);
      assertThat(context.getBean(ObjlogStreams.class).stream("solo").partitions()).isEqualTo(1);
    });
  }

  @Test
  void aStreamWrittenWithoutARecordNeedsAConfiguredCount() {
    // What the Go library (or a plain engine writer) leaves: a stream with a catalog and no record.
    try (FilesystemObjectStore store = store(); Objlog log = Objlog.open(store, "legacy", ObjlogOptions.defaults());
        PartitionWriter writer = log.openWriter(0)) {
      writer.append(dev.objlog.LogRecord.of(1L, "old"));
      writer.flush();
    }
    autoCreating().run(context -> {
      assertThatThrownBy(() -> context.getBean(ObjlogStreams.class).stream("legacy"))
          .isInstanceOf(StreamPartitionsException.class)
          .hasMessageContaining("exists in the bucket without a recorded partition count")
          .hasMessageContaining("Set objlog.defaults.partitions");
    });
    autoCreating("objlog.defaults.partitions=2").run(context -> {
      assertThat(context.getBean(ObjlogStreams.class).stream("legacy").partitions()).isEqualTo(2);
      assertThat(context.getBean(ObjlogStreams.class).log("legacy").head(0).orElseThrow().nextLsn()).isEqualTo(1);
    });
    assertThat(new String(store().get(recordKey("legacy")).bytes(), StandardCharsets.UTF_8)).contains("\"partitions\":2");
  }

  @Test
  void aBadDefaultCountFailsStartupNamingTheProperty() {
    autoCreating("objlog.defaults.partitions=0").run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).rootCause().isInstanceOf(ObjlogConfigurationException.class);
      assertThat(FailureAnalyses.analyze(context.getStartupFailure()).getDescription())
          .startsWith("Invalid objlog configuration: objlog.defaults.partitions: auto-created streams would have 0 partitions");
    });
  }

  @Test
  void writerLeasesFromTheDefaultsShareAnAutoCreatedStream() {
    autoCreating("objlog.defaults.partitions=4", "objlog.defaults.writer.lease.enabled=true").run(first -> {
      assertThat(first).hasNotFailed();
      assertThat(first.getBean(CheckpointRepository.class)).isInstanceOf(BucketCheckpointRepository.class);
      ObjlogTemplate one = first.getBean(ObjlogTemplate.class);
      assertThat(one.writablePartitions("leased").stream().toArray()).containsExactly(0, 1, 2, 3);
      assertThat(one.writerLeaseStatus("leased")).isPresent();
      one.send("leased", "k", "v").get(WAIT, TimeUnit.SECONDS);
      assertThat(store().list("", 1000).entries())
          .anyMatch(e -> e.key().endsWith("/p00000000/maintenance/writer-lease.json"));
    });
  }

  static final BlockingQueue<String> received = new LinkedBlockingQueue<>();

  static class GroupListener {
    @ObjlogListener(id = "audit", stream = "audit", group = "auditors")
    void on(String value, @Header("objlog_partition") int partition) {
      received.add(partition + "=" + value);
    }
  }

  @Test
  void aGroupListenerConsumesAnAutoCreatedStreamAndCheckpointsInTheBucket() {
    received.clear();
    autoCreating("objlog.defaults.partitions=2").withBean(GroupListener.class).run(context -> {
      assertThat(context).hasNotFailed();
      context.getBean(ObjlogTemplate.class).send("audit", 1, "hello").get(WAIT, TimeUnit.SECONDS);
      assertThat(received.poll(WAIT, TimeUnit.SECONDS)).isEqualTo("1=hello");
      CheckpointRepository checkpoints = context.getBean(CheckpointRepository.class);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT);
      while (checkpoints.load(CheckpointKey.of("auditors", "audit", 1)).isEmpty()) {
        assertThat(System.nanoTime()).as("a checkpoint within %ss", WAIT).isLessThan(deadline);
        Thread.sleep(5);
      }
      assertThat(checkpoints.load(CheckpointKey.of("auditors", "audit", 1)).orElseThrow().checkpoint().nextLsn())
          .isEqualTo(1);
      assertThat(store().list("", 1000).entries())
          .anyMatch(e -> e.key().endsWith("/p00000001/consumers/auditors/lease.json"));
    });
  }

  @Test
  void retentionIsRequestedAndAppliedOnAnAutoCreatedStream() {
    autoCreating("objlog.defaults.partitions=1", "objlog.defaults.writer.batch.max-records=1").run(context -> {
      ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
      for (int i = 0; i < 3; i++) {
        template.send("trimmed", 0, "r" + i).get(WAIT, TimeUnit.SECONDS);
      }
      ObjlogMaintenance maintenance = context.getBean(ObjlogMaintenance.class);
      maintenance.requestRetention("trimmed", 0, 2);
      RetentionResult applied = maintenance.applyRetention("trimmed", 0).orElseThrow();
      assertThat(applied.oldestLsn()).isEqualTo(2);
      assertThat(context.getBean(ObjlogStreams.class).log("trimmed").head(0).orElseThrow().oldestLsn()).isEqualTo(2);
    });
  }

  private FilesystemObjectStore store() {
    return FilesystemObjectStore.open(root);
  }

  private String recordKey(String streamId) {
    return new StreamAutoCreator(store(), "objlog", null, 4096, java.time.Clock.systemUTC()).recordKey(streamId);
  }
}
