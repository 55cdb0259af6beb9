package dev.objlog.spring.autoconfigure.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.PartitionHead;
import dev.objlog.RetentionRequest;
import dev.objlog.read.Freshness;
import dev.objlog.spring.autoconfigure.FailureAnalyses;
import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.MutableClock;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.lifecycle.ConsumerRetentionGate;
import dev.objlog.spring.lifecycle.ObjlogLifecycleScheduler;
import dev.objlog.spring.lifecycle.ObjlogMaintenance;
import dev.objlog.store.ListPage;
import dev.objlog.store.ObjectStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class ObjlogLifecycleAutoConfigurationTests {
  private static final long T0 = 1_800_000_000_000L;

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
              ObjlogStreamsAutoConfiguration.class, ObjlogLifecycleAutoConfiguration.class))
          .withPropertyValues("objlog.store.type=memory", "objlog.streams.orders.partitions=2",
              "objlog.streams.orders.writer.batch.max-delay=1ms");

  @Test
  void theSchedulerIsOffByDefaultButMaintenanceExists() {
    runner.withPropertyValues("objlog.streams.orders.retention.max-records=10").run(context -> {
      assertThat(context).hasNotFailed().hasSingleBean(ObjlogMaintenance.class)
          .doesNotHaveBean(ObjlogLifecycleScheduler.class);
    });
  }

  @Test
  void maxRecordsIsRequestedAppliedAndReclaimedAfterTheDeleteDelay() {
    runner.withUserConfiguration(VirtualTime.class)
        .withPropertyValues("objlog.lifecycle.enabled=true", "objlog.lifecycle.interval=50ms",
            "objlog.lifecycle.delete-delay=1h", "objlog.streams.orders.retention.max-records=10")
        .run(context -> {
          assertThat(context).hasNotFailed();
          ObjlogLifecycleScheduler scheduler = context.getBean(ObjlogLifecycleScheduler.class);
          assertThat(scheduler.isRunning()).isTrue();
          ObjlogStreams streams = context.getBean(ObjlogStreams.class);
          send(context.getBean(ObjlogTemplate.class), 0, 30); // one segment per record
          long objectsBefore = objects(streams.store());

          // The policy becomes a request, and this instance's writer applies it (runs during the
          // sends may have requested lower LSNs first, with lower versions).
          await(() -> head(streams, 0).oldestLsn() == 20);
          PartitionHead head = head(streams, 0);
          RetentionRequest request = streams.log("orders").retentionRequest(0).orElseThrow();
          long version = request.policyVersion();
          assertThat(version).isPositive();
          assertThat(request.beforeLsn()).isEqualTo(20);
          assertThat(head.appliedRetentionVersion()).isEqualTo(version);
          // Partition 1 has no records: nothing requested.
          assertThat(streams.log("orders").retentionRequest(1)).isEmpty();

          // Requests only advance: later runs with nothing new make no new version, and delete
          // nothing before the delete delay.
          long runs = scheduler.runs();
          await(() -> scheduler.runs() >= runs + 3);
          assertThat(streams.log("orders").retentionRequest(0).orElseThrow().policyVersion()).isEqualTo(version);
          MeterRegistry meters = context.getBean(MeterRegistry.class);
          assertThat(deleted(meters)).isZero();

          // After the delete delay (virtual time), reclaim deletes the trimmed segments. A reclaimer
          // waits out one floor at a time: a lower floor applied during the sends may come first.
          for (int i = 0; i < 3 && deleted(meters) < 20; i++) {
            context.getBean(MutableClock.class).advance(Duration.ofHours(2).toMillis());
            long seen = scheduler.runs();
            await(() -> scheduler.runs() >= seen + 2);
          }
          assertThat(deleted(meters)).isGreaterThanOrEqualTo(20);
          assertThat(objects(streams.store())).isLessThan(objectsBefore - 10);

          // New records move the policy on: new versions (one per run that saw new records).
          send(context.getBean(ObjlogTemplate.class), 0, 5);
          await(() -> head(streams, 0).oldestLsn() == 25);
          assertThat(streams.log("orders").retentionRequest(0).orElseThrow().policyVersion())
              .isBetween(version + 1, version + 5);
          assertThat(scheduler.failures()).isZero();

          // It stops cleanly and runs no more.
          scheduler.stop();
          assertThat(scheduler.isRunning()).isFalse();
          long stoppedAt = scheduler.runs();
          Thread.sleep(200);
          assertThat(scheduler.runs()).isEqualTo(stoppedAt);
        });
  }

  @Test
  void consumerGroupsAndSnapshotsHoldRetentionBack() {
    runner.withUserConfiguration(VirtualTime.class, Consumers.class)
        .withPropertyValues("objlog.lifecycle.enabled=true", "objlog.lifecycle.interval=1h",
            "objlog.streams.orders.retention.max-records=10",
            "objlog.streams.orders.retention.consumer-groups=billing,audit",
            "objlog.streams.orders.retention.snapshot-gate=true")
        .run(context -> {
          assertThat(context).hasNotFailed();
          ObjlogLifecycleScheduler scheduler = context.getBean(ObjlogLifecycleScheduler.class);
          ObjlogStreams streams = context.getBean(ObjlogStreams.class);
          send(context.getBean(ObjlogTemplate.class), 0, 30);

          // No snapshot yet: the snapshot gate keeps everything.
          assertThat(scheduler.runNow().retentionRequests()).isZero();
          assertThat(streams.log("orders").retentionRequest(0)).isEmpty();

          // A snapshot through LSN 14 lets retention go up to 15, the consumers (at 12) hold it at 12.
          streams.log("orders").recordSnapshot(0, 14, "snapshots/orders/0/14");
          ObjlogLifecycleScheduler.Run run = scheduler.runNow();
          assertThat(run.retentionRequests()).isEqualTo(1);
          assertThat(run.retentionApplied()).isEqualTo(1);
          RetentionRequest request = streams.log("orders").retentionRequest(0).orElseThrow();
          assertThat(request.beforeLsn()).isEqualTo(12);
          assertThat(head(streams, 0).oldestLsn()).isEqualTo(12);
          assertThat(context.getBean(RecordingGate.class).groups).containsExactly("billing", "audit");

          // Nothing moved: no new request.
          assertThat(scheduler.runNow().retentionRequests()).isZero();
          assertThat(streams.log("orders").retentionRequest(0).orElseThrow().policyVersion()).isEqualTo(1);
        });
  }

  @Test
  void maxAgeKeepsRecentRecords() {
    runner.withPropertyValues("objlog.lifecycle.enabled=true", "objlog.lifecycle.interval=1h",
            "objlog.streams.orders.retention.max-age=1h")
        .run(context -> {
          ObjlogLifecycleScheduler scheduler = context.getBean(ObjlogLifecycleScheduler.class);
          ObjlogStreams streams = context.getBean(ObjlogStreams.class);
          send(context.getBean(ObjlogTemplate.class), 0, 5);
          // Every record is recent (the system clock): nothing to trim.
          assertThat(scheduler.runNow().retentionRequests()).isZero();
          assertThat(head(streams, 0).oldestLsn()).isZero();
        });
    runner.withUserConfiguration(VirtualTime.class)
        .withPropertyValues("objlog.lifecycle.enabled=true", "objlog.lifecycle.interval=1h",
            "objlog.streams.orders.retention.max-age=1h", "objlog.streams.orders.retention.max-records=2")
        .run(context -> {
          ObjlogLifecycleScheduler scheduler = context.getBean(ObjlogLifecycleScheduler.class);
          ObjlogStreams streams = context.getBean(ObjlogStreams.class);
          send(context.getBean(ObjlogTemplate.class), 0, 5);
          // The lifecycle clock is two hours behind the records: every record is younger than an
          // hour, so max-age keeps them all although max-records alone would trim 3.
          context.getBean(MutableClock.class).set(System.currentTimeMillis() - Duration.ofHours(2).toMillis());
          assertThat(scheduler.runNow().retentionRequests()).isZero();
          // Two hours later (virtual), every record is older than an hour: max-records (2) decides.
          context.getBean(MutableClock.class).advance(Duration.ofHours(4).toMillis());
          assertThat(scheduler.runNow().retentionRequests()).isEqualTo(1);
          assertThat(head(streams, 0).oldestLsn()).isEqualTo(3);
        });
  }

  @Test
  void theScheduleAppliesAndReclaimsRetentionOfAnAutoCreatedStreamOpenedHere() {
    runner.withUserConfiguration(VirtualTime.class)
        .withPropertyValues("objlog.lifecycle.enabled=true", "objlog.lifecycle.interval=1h",
            "objlog.lifecycle.delete-delay=1h", "objlog.defaults.auto-create=true",
            "objlog.defaults.partitions=2", "objlog.defaults.writer.batch.max-records=1")
        .run(context -> {
          assertThat(context).hasNotFailed();
          ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
          for (int i = 0; i < 5; i++) {
            template.send("events", 1, "r" + i).get(30, TimeUnit.SECONDS); // one segment per record
          }
          ObjlogStreams streams = context.getBean(ObjlogStreams.class);
          ObjlogLifecycleScheduler scheduler = context.getBean(ObjlogLifecycleScheduler.class);
          // Retention requested by hand (no policy: auto-created streams have none) is applied by
          // the schedule through this instance's writer of the auto-created stream.
          context.getBean(ObjlogMaintenance.class).requestRetention("events", 1, 3);
          ObjlogLifecycleScheduler.Run applied = scheduler.runNow();
          assertThat(applied.retentionApplied()).isEqualTo(1);
          assertThat(applied.reclaim()).containsKeys("orders", "events");
          assertThat(streams.reader("events").partition(1).head(Freshness.LATEST).oldestLsn()).isEqualTo(3);

          // After the delete delay (virtual time) the schedule's reclaim deletes the trimmed segments.
          MeterRegistry meters = context.getBean(MeterRegistry.class);
          assertThat(deleted(meters)).isZero();
          context.getBean(MutableClock.class).advance(Duration.ofHours(2).toMillis());
          ObjlogLifecycleScheduler.Run reclaimed = scheduler.runNow();
          assertThat(reclaimed.failures()).isZero();
          assertThat(deleted(meters)).isGreaterThanOrEqualTo(3);
          assertThat(streams.reader("events").partition(1).head(Freshness.LATEST).nextLsn()).isEqualTo(5);
        });
  }

  @ParameterizedTest
  @CsvSource({
    "objlog.lifecycle.interval, 0s",
    "objlog.lifecycle.delete-delay, -1s",
    "objlog.lifecycle.max-deletes-per-run, 0",
    "objlog.lifecycle.delete-rate, -5",
    "objlog.streams.orders.retention.max-age, 0s",
    "objlog.streams.orders.retention.max-records, -1",
    "objlog.streams.orders.retention.until-consumed.keep-records, -1",
    "objlog.streams.orders.retention.until-consumed.expire-after, 0s",
    "objlog.streams.orders.retention.until-consumed.warn-after, -1s"
  })
  void badValuesFailStartupNamingTheProperty(String property, String value) {
    runner.withPropertyValues(property + "=" + value).run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).hasRootCauseInstanceOf(ObjlogConfigurationException.class);
      FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
      assertThat(analysis.getDescription()).startsWith("Invalid objlog configuration: " + property);
      assertThat(analysis.getAction()).contains(property);
    });
  }

  private static void send(ObjlogTemplate template, int partition, int count) throws Exception {
    for (int i = 0; i < count; i++) {
      template.send("orders", partition, "r" + i).get(30, TimeUnit.SECONDS);
    }
  }

  private static PartitionHead head(ObjlogStreams streams, int partition) {
    return streams.reader("orders").partition(partition).head(Freshness.LATEST);
  }

  private static double deleted(MeterRegistry meters) {
    return meters.find("objlog.lifecycle.deleted.objects").counters().stream().mapToDouble(Counter::count).sum();
  }

  private static long objects(ObjectStore store) {
    long count = 0;
    String after = "";
    while (true) {
      ListPage page = store.list("", after, 1000);
      count += page.entries().size();
      if (!page.hasMore() || page.nextAfterKey() == null) {
        return count;
      }
      after = page.nextAfterKey();
    }
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition met within 30 s").isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class VirtualTime {
    @Bean
    MutableClock clock() {
      return new MutableClock(T0);
    }

    @Bean
    SimpleMeterRegistry meterRegistry() {
      return new SimpleMeterRegistry();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class Consumers {
    @Bean
    RecordingGate consumerRetentionGate() {
      return new RecordingGate();
    }
  }

  /** Every group is done below LSN 12. */
  static class RecordingGate implements ConsumerRetentionGate {
    volatile List<String> groups = List.of();

    @Override
    public long retainableBefore(String streamName, int partition, List<String> groups) {
      this.groups = groups;
      return 12;
    }
  }
}
