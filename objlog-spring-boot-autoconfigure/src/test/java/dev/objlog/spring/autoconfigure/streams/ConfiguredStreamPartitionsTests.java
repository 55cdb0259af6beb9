package dev.objlog.spring.autoconfigure.streams;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionWriter;
import dev.objlog.spring.autoconfigure.FailureAnalyses;
import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.core.StreamAutoCreator;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A stream configured under objlog.streams whose partition count the bucket contradicts fails at
 * startup naming objlog.streams.<name>.partitions and both counts: against the count an
 * auto-creating instance recorded, and, without a record (a stream of the Go library), when the
 * partition past the configured count exists. Each context is one instance on one filesystem store.
 */
class ConfiguredStreamPartitionsTests {
  @TempDir Path root;

  private ApplicationContextRunner runner(String... properties) {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
            ObjlogStreamsAutoConfiguration.class))
        .withPropertyValues("objlog.store.filesystem.root=" + root, "objlog.defaults.writer.batch.max-delay=1ms",
            "objlog.streams.orders.writer.batch.max-delay=1ms")
        .withPropertyValues(properties);
  }

  private void autoCreate(String name, int partitions) {
    runner("objlog.defaults.auto-create=true", "objlog.defaults.partitions=" + partitions).run(context -> {
      assertThat(context).hasNotFailed();
      context.getBean(ObjlogTemplate.class).send(name, 0, "first").get(30, TimeUnit.SECONDS);
    });
  }

  @Test
  void aConfiguredCountThatDiffersFromTheRecordedOneFailsStartupNamingBothCounts() {
    autoCreate("events", 3);
    runner("objlog.streams.events.partitions=4").run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).isInstanceOf(ObjlogConfigurationException.class);
      FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
      assertThat(analysis.getDescription()).isEqualTo("Invalid objlog configuration: objlog.streams.events.partitions:"
          + " stream 'events' (stream id \"events\") has 3 partitions recorded in the bucket at " + recordKey("events")
          + ", but objlog.streams.events.partitions is 4. A stream's partition count never changes: with another"
          + " count, keys would map to other partitions and listeners would miss partitions.");
      assertThat(analysis.getAction()).isEqualTo("Set objlog.streams.events.partitions to 3.");
    });
  }

  @Test
  void anUnsetCountOnAStreamRecordedWithMoreFailsStartupSayingItIsOne() {
    autoCreate("events", 2);
    runner("objlog.streams.events.stream-id=events").run(context -> {
      assertThat(context).hasFailed();
      assertThat(FailureAnalyses.analyze(context.getStartupFailure()).getDescription())
          .contains("has 2 partitions recorded in the bucket")
          .contains("but objlog.streams.events.partitions is 1.");
    });
  }

  @Test
  void theRecordedCountConfiguredStartsAndReadsWhatTheAutoCreatingInstanceWrote() {
    autoCreate("events", 3);
    runner("objlog.streams.events.partitions=3").run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(ObjlogStreams.class).log("events").head(0).orElseThrow().nextLsn()).isEqualTo(1);
    });
  }

  @Test
  void aStreamWithoutARecordWhosePartitionPastTheConfiguredCountExistsFailsStartup() {
    writeLegacy("legacy", 4); // as the Go library leaves it: four partitions written, no record
    runner("objlog.streams.legacy.partitions=2").run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).isInstanceOf(ObjlogConfigurationException.class);
      FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
      assertThat(analysis.getDescription()).isEqualTo("Invalid objlog configuration: objlog.streams.legacy.partitions:"
          + " stream 'legacy' (stream id \"legacy\") has no partition count recorded in the bucket, and its"
          + " partition 2 exists, so it has more partitions than the 2 of objlog.streams.legacy.partitions"
          + " (1 when unset). Listeners would never read the partitions beyond.");
      assertThat(analysis.getAction()).startsWith("Set objlog.streams.legacy.partitions to the stream's partition count");
    });
    runner("objlog.streams.legacy.stream-id=legacy").run(context -> {
      assertThat(context).hasFailed();
      assertThat(FailureAnalyses.analyze(context.getStartupFailure()).getDescription())
          .contains("its partition 1 exists, so it has more partitions than the 1 of objlog.streams.legacy.partitions");
    });
  }

  @Test
  void aStreamWithoutARecordStartsWithItsCountAndNoRecordIsWritten() {
    writeLegacy("legacy", 4);
    runner("objlog.streams.legacy.partitions=4").run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(ObjlogStreams.class).log("legacy").head(3).orElseThrow().nextLsn()).isEqualTo(1);
    });
    // A new stream configured with the default count starts as before.
    runner("objlog.streams.orders.stream-id=orders").run(context -> {
      assertThat(context).hasNotFailed();
      context.getBean(ObjlogTemplate.class).send("orders", 0, "v").get(30, TimeUnit.SECONDS);
    });
    runner("objlog.streams.orders.stream-id=orders").run(context -> assertThat(context).hasNotFailed());
    try (FilesystemObjectStore store = FilesystemObjectStore.open(root)) {
      assertThat(store.list("", 1000).entries()).noneMatch(e -> e.key().endsWith(StreamAutoCreator.RECORD_NAME));
    }
  }

  private void writeLegacy(String streamId, int partitions) {
    try (FilesystemObjectStore store = FilesystemObjectStore.open(root);
        Objlog log = Objlog.open(store, streamId, ObjlogOptions.defaults())) {
      for (int p = 0; p < partitions; p++) {
        try (PartitionWriter writer = log.openWriter(p)) {
          writer.append(LogRecord.of(1L, "old"));
          writer.flush();
        }
      }
    }
  }

  private String recordKey(String streamId) {
    return new StreamAutoCreator(FilesystemObjectStore.open(root), "objlog", null, 4096, Clock.systemUTC())
        .recordKey(streamId);
  }
}
