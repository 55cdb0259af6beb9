package dev.objlog.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.ObjlogOptions;
import dev.objlog.WriterOptions;
import dev.objlog.read.ReaderOptions;
import dev.objlog.spring.core.DefaultRecordValueConverter;
import dev.objlog.spring.core.MutableClock;
import dev.objlog.spring.core.ObjlogStream;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.core.PartitionSet;
import dev.objlog.spring.core.StoreActivity;
import dev.objlog.spring.core.StreamWriterSettings;
import dev.objlog.spring.core.WriterLeaseSettings;
import dev.objlog.spring.listener.checkpoint.InMemoryCheckpointRepository;
import dev.objlog.spring.lifecycle.ObjlogLifecycleProperties;
import dev.objlog.spring.lifecycle.ObjlogMaintenance;
import dev.objlog.store.memory.MemoryObjectStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ObjlogEndpointTests {
  private ObjlogStreams streams;
  private ObjlogTemplate template;
  private StoreActivity activity;
  private ObjlogEndpoint endpoint;

  @BeforeEach
  void open() {
    streams = new ObjlogStreams(new MemoryObjectStore(), List.of(new ObjlogStream("orders", "shop/orders", 3)),
        ObjlogOptions.defaults(), ReaderOptions.defaults());
    activity = new StoreActivity();
    template = new ObjlogTemplate(streams,
        Map.of("orders", new StreamWriterSettings(PartitionSet.parse("0-1", 3),
            WriterOptions.builder().batch(Duration.ofMillis(1), 1 << 20, 1000).build(), false)),
        new DefaultRecordValueConverter(null), Clock.systemUTC(), activity);
    endpoint = new ObjlogEndpoint(streams, template, activity);
  }

  @AfterEach
  void close() {
    template.close();
    streams.close();
  }

  @Test
  @SuppressWarnings("unchecked")
  void listsStreamsByNameWithHeadsAndLocalWriters() throws Exception {
    for (int i = 0; i < 3; i++) {
      template.send("orders", 1, "r" + i).get(30, TimeUnit.SECONDS);
    }
    Map<String, Object> body = endpoint.streams();
    assertThat(body.get("store")).asString().contains("memory");
    Map<String, Object> orders = (Map<String, Object>) ((Map<String, Object>) body.get("streams")).get("orders");
    assertThat(orders).containsEntry("streamId", "shop/orders").containsEntry("partitionCount", 3)
        .containsEntry("writerPartitions", "0-1").doesNotContainKey("writerLease");
    List<Map<String, Object>> partitions = (List<Map<String, Object>>) orders.get("partitions");
    assertThat(partitions).hasSize(3);
    Map<String, Object> p1 = partitions.get(1);
    assertThat(p1).containsEntry("partition", 1).containsEntry("nextLsn", 3L).containsEntry("oldestLsn", 0L)
        .containsEntry("writerEpoch", 1L).containsKey("newestRecordTimestamp");
    assertThat((Map<String, Object>) p1.get("localWriter")).containsEntry("state", "OPEN")
        .containsEntry("nextLsn", 3L).containsEntry("pendingSends", 0L).containsKey("lastCommit");
    assertThat(partitions.get(0)).containsEntry("nextLsn", 0L).containsEntry("writerEpoch", 0L);
    assertThat((Map<String, Object>) partitions.get(0).get("localWriter")).containsEntry("state", "NOT_OPENED");
    assertThat((Map<String, Object>) partitions.get(2).get("localWriter")).containsOnly(Map.entry("state", "NOT_WRITTEN_HERE"));
    assertThat(activity.snapshot().lastSuccess()).isNotNull();
  }

  @Test
  @SuppressWarnings("unchecked")
  void withWriterLeasesEachHeldPartitionShowsThisInstanceAsItsOwner() {
    Instant before = Instant.now();
    try (ObjlogTemplate leased = new ObjlogTemplate(streams,
        Map.of("orders", new StreamWriterSettings(PartitionSet.parse("0-1", 3), WriterOptions.defaults(), false,
            WriterLeaseSettings.of(Duration.ofMinutes(1)))),
        new DefaultRecordValueConverter(null), Clock.systemUTC(), activity,
        new InMemoryCheckpointRepository().leaseStore())) {
      // The template takes its share before it is returned; one instance alone holds every writer partition.
      String owner = leased.writerLeaseOwner().orElseThrow();
      Map<String, Object> orders = (Map<String, Object>) ((Map<String, Object>) new ObjlogEndpoint(streams, leased,
          activity).streams().get("streams")).get("orders");
      assertThat(orders).containsEntry("writerPartitions", "0-1");
      Map<String, Object> lease = (Map<String, Object>) orders.get("writerLease");
      assertThat(lease).containsEntry("instanceId", owner).containsEntry("memberSlot", 0).containsEntry("members", 1);
      List<Map<String, Object>> leases = (List<Map<String, Object>>) lease.get("leases");
      assertThat(leases).extracting(l -> l.get("partition")).containsExactly(0, 1);
      assertThat(leases).allSatisfy(l -> {
        assertThat(l).containsEntry("owner", owner).containsKey("epoch");
        assertThat((Instant) l.get("until")).isAfter(before);
      });
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void withWriterLeasesAPartitionHeldByAnotherInstanceShowsThatInstancesOwnerId() {
    var leaseStore = new InMemoryCheckpointRepository().leaseStore();
    WriterLeaseSettings leases = WriterLeaseSettings.of(Duration.ofMinutes(1));
    try (ObjlogTemplate first = new ObjlogTemplate(streams,
        Map.of("orders", new StreamWriterSettings(PartitionSet.parse("0-1", 3), WriterOptions.defaults(), false, leases)),
        new DefaultRecordValueConverter(null), Clock.systemUTC(), activity, leaseStore);
        ObjlogTemplate second = new ObjlogTemplate(streams,
            Map.of("orders", new StreamWriterSettings(PartitionSet.parse("0-1", 3), WriterOptions.defaults(), false,
                leases)),
            new DefaultRecordValueConverter(null), Clock.systemUTC(), activity, leaseStore)) {
      // The first instance, alone when it started, took both partitions; the second's first round read
      // their leases. Partition 0 stays the first's whatever later rounds hand over (the highest goes first).
      String firstOwner = first.writerLeaseOwner().orElseThrow();
      long firstEpoch = first.writerLeaseStatus("orders").orElseThrow().leases().stream()
          .filter(l -> l.partition() == 0).findFirst().orElseThrow().epoch();
      Map<String, Object> orders = (Map<String, Object>) ((Map<String, Object>) new ObjlogEndpoint(streams, second,
          activity).streams().get("streams")).get("orders");
      Map<String, Object> lease = (Map<String, Object>) orders.get("writerLease");
      assertThat(lease).containsEntry("instanceId", second.writerLeaseOwner().orElseThrow());
      assertThat((List<Map<String, Object>>) lease.get("leases")).extracting(l -> l.get("partition"))
          .as("partitions the second instance holds").doesNotContain(0);
      assertThat((List<Map<String, Object>>) lease.get("othersLeases"))
          .as("leases the second instance saw held elsewhere")
          .anySatisfy(l -> assertThat(l).containsEntry("partition", 0).containsEntry("owner", firstOwner)
              .containsEntry("epoch", firstEpoch).containsKey("until"));
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void onePartitionAddsRetentionTheNewestSegmentAndTheSegmentFolder() throws Exception {
    for (int i = 0; i < 4; i++) {
      template.send("orders", 0, "r" + i).get(30, TimeUnit.SECONDS);
    }
    Map<String, Object> body = endpoint.partition("orders", 0);
    assertThat(body).containsEntry("stream", "orders").containsEntry("streamId", "shop/orders")
        .containsEntry("partition", 0).containsEntry("nextLsn", 4L).containsEntry("appliedRetentionLsn", 0L);
    Map<String, Object> newest = (Map<String, Object>) body.get("newestSegment");
    assertThat(newest).containsEntry("lastLsn", 3L).containsKey("key").containsKey("sizeBytes");
    Map<String, Object> folder = (Map<String, Object>) body.get("segmentObjects");
    assertThat((Long) folder.get("count")).isBetween(1L, 4L);
    assertThat((Long) folder.get("bytes")).isPositive();
    assertThat(folder).containsEntry("truncated", false);
    List<Map<String, Object>> objects = (List<Map<String, Object>>) folder.get("newest");
    assertThat(objects.get(0)).containsEntry("key", newest.get("key"));
  }

  @Test
  void unknownStreamOrPartitionIsNotFound() {
    assertThat(endpoint.partition("payments", 0)).isNull();
    assertThat(endpoint.partition("orders", 3)).isNull();
    assertThat(endpoint.partition("orders", -1)).isNull();
  }

  @Test
  @SuppressWarnings("unchecked")
  void writeOperationsRequestAndApplyRetentionAndReclaim() throws Exception {
    MutableClock clock = new MutableClock(System.currentTimeMillis());
    ObjlogLifecycleProperties properties = new ObjlogLifecycleProperties();
    properties.setDeleteDelay(Duration.ofMinutes(10));
    try (ObjlogMaintenance maintenance = new ObjlogMaintenance(streams, template, properties, clock)) {
      ObjlogEndpoint writable = new ObjlogEndpoint(streams, template, activity, maintenance);
      for (int i = 0; i < 6; i++) {
        template.send("orders", 1, "r" + i).get(30, TimeUnit.SECONDS);
      }
      Map<String, Object> body = writable.maintain("orders", 1, ObjlogEndpoint.RETENTION, 4L);
      assertThat((Map<String, Object>) body.get("request")).containsEntry("policyVersion", 1L)
          .containsEntry("beforeLsn", 4L).containsEntry("outcome", "CREATED");
      Map<String, Object> applied = (Map<String, Object>) body.get("applied");
      assertThat(applied).containsEntry("applied", true).containsEntry("policyVersion", 1L);
      assertThat(((Number) applied.get("oldestLsn")).longValue()).isBetween(1L, 4L);
      // The next request gets the next version.
      assertThat((Map<String, Object>) writable.maintain("orders", 1, ObjlogEndpoint.RETENTION, 5L).get("request"))
          .containsEntry("policyVersion", 2L);
      // Partition 2 is not written here: requested, not applied.
      assertThat(writable.maintain("orders", 2, ObjlogEndpoint.RETENTION, 0L)).containsEntry("applied", null);

      Map<String, Object> first = (Map<String, Object>) writable.maintain("orders", 1, ObjlogEndpoint.RECLAIM, null)
          .get("result");
      assertThat(first).containsEntry("operation", "RECLAIM").containsEntry("deletedObjects", 0L);
      clock.advance(Duration.ofMinutes(11).toMillis());
      Map<String, Object> second = (Map<String, Object>) writable.maintain("orders", 1, ObjlogEndpoint.RECLAIM, null)
          .get("result");
      assertThat((Long) second.get("deletedObjects")).isPositive();
      assertThat((Map<String, Object>) writable.maintain("orders", 1, ObjlogEndpoint.SCRUB, null).get("result"))
          .containsEntry("operation", "SCRUB");

      assertThatThrownBy(() -> writable.maintain("payments", 0, ObjlogEndpoint.RECLAIM, null))
          .isInstanceOf(InvalidEndpointRequestException.class);
      assertThatThrownBy(() -> writable.maintain("orders", 3, ObjlogEndpoint.RECLAIM, null))
          .isInstanceOf(InvalidEndpointRequestException.class);
      assertThatThrownBy(() -> writable.maintain("orders", 1, "compact", null))
          .isInstanceOf(InvalidEndpointRequestException.class);
      assertThatThrownBy(() -> writable.maintain("orders", 1, ObjlogEndpoint.RETENTION, null))
          .isInstanceOf(InvalidEndpointRequestException.class);
      assertThatThrownBy(() -> writable.maintain("orders", 1, ObjlogEndpoint.RETENTION, 2L))
          .isInstanceOf(InvalidEndpointRequestException.class).hasMessageContaining("2");
    }
    assertThatThrownBy(() -> endpoint.maintain("orders", 1, ObjlogEndpoint.RECLAIM, null))
        .isInstanceOf(InvalidEndpointRequestException.class);
  }

  @Test
  @SuppressWarnings("unchecked")
  void verifyReportsAHealthyPartitionAndThenTheSegmentThatWentMissing() throws Exception {
    for (int i = 0; i < 3; i++) {
      template.send("orders", 0, "v" + i).get(30, TimeUnit.SECONDS);
      template.flush();
    }
    Map<String, Object> healthy =
        (Map<String, Object>) endpoint.maintain("orders", 0, ObjlogEndpoint.VERIFY, null, true).get("result");
    assertThat(healthy).containsEntry("outcome", "OK").containsEntry("segmentHashesChecked", true)
        .containsEntry("problemCount", 0L);
    long segments = (Long) healthy.get("segments");
    assertThat(segments).isPositive();
    assertThat(healthy.get("segmentsChecked")).isEqualTo(segments);

    String segment = streams.store().list("", 1000).entries().stream().map(e -> e.key())
        .filter(k -> k.endsWith(".plseg")).findFirst().orElseThrow();
    streams.store().delete(List.of(segment));
    Map<String, Object> damaged =
        (Map<String, Object>) endpoint.maintain("orders", 0, ObjlogEndpoint.VERIFY, null, null).get("result");
    assertThat(damaged).containsEntry("outcome", "CORRUPT").containsEntry("segmentHashesChecked", false);
    assertThat((List<Map<String, Object>>) damaged.get("problems")).singleElement()
        .satisfies(p -> assertThat(p).containsEntry("kind", "SEGMENT_MISSING").containsEntry("key", segment));
    assertThat(((Map<String, Object>) endpoint.maintain("orders", 2, ObjlogEndpoint.VERIFY, null, null).get("result")))
        .containsEntry("outcome", "NO_PARTITION");
  }

  @Test
  void unsignedValuesNeverPrintNegative() {
    assertThat(ObjlogEndpoint.u64(-1L)).hasToString("18446744073709551615");
    assertThat(ObjlogEndpoint.u64(7L)).isEqualTo(7L);
  }
}
