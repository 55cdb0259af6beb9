package dev.objlog.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.ObjlogOptions;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.internal.catalog.FencedSession;
import dev.objlog.internal.metrics.MetricNames;
import dev.objlog.internal.retention.RetentionApplier;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.TransientStoreException;
import dev.objlog.store.fault.FaultInjectingObjectStore;
import dev.objlog.store.fault.FaultInjectingObjectStore.Fault;
import dev.objlog.store.fault.FaultInjectingObjectStore.FaultRule;
import dev.objlog.store.fault.FaultInjectingObjectStore.Operation;
import dev.objlog.testing.LogFixture;
import dev.objlog.testing.LogFixture.StoreKind;
import dev.objlog.testing.MutableClock;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The reclaimer's rules (PROTOCOLS.md §5.8) on the memory and filesystem stores. */
class ReclaimerTests {
  private static final int P = 2;
  private static final Duration DELAY = Duration.ofHours(1);
  private static final String OWNER_A = "a".repeat(32);
  private static final String OWNER_B = "b".repeat(32);

  @TempDir Path dir;

  private static ReclaimerOptions.Builder options(LogFixture f) {
    return ReclaimerOptions.builder().clock(f.clock).deleteDelay(DELAY).ownerId(OWNER_A);
  }

  /** {@code count} one-record segments, retention applied below {@code before}. */
  private static List<LeafEntry> retained(LogFixture f, FencedSession writer, int count, long before) {
    List<LeafEntry> segments = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      segments.add(f.append(writer, "v" + i));
    }
    f.log.requestRetention(P, 1, before);
    RetentionApplier.apply(f.runtime(), writer);
    return segments;
  }

  private static String stateJson(LogFixture f) {
    return new String(f.store.get(f.keys(P).gcState()).bytes(), StandardCharsets.UTF_8);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aReaderHoldingATrimmedSegmentCanReadItThroughoutTheGracePeriod(StoreKind kind) {
    try (LogFixture f = LogFixture.open(kind, dir, 4, 4);
        Reclaimer reclaimer = Reclaimer.create(f.log, options(f).build())) {
      FencedSession writer = f.writer(P, 1);
      for (int i = 0; i < 10; i++) {
        f.append(writer, "v" + i);
      }
      // A reader discovers segment 2 through the catalog before retention.
      LeafEntry held = f.catalog(P).findSegment(f.head(P), 2).orElseThrow();
      f.clock.advance(Duration.ofHours(5));
      f.log.requestRetention(P, 1, 8);
      RetentionApplier.apply(f.runtime(), writer);
      assertThat(f.head(P).oldestLsn()).isEqualTo(8);

      // The first pass starts the clock; segments are older than the delay, but that is not it.
      for (int minute = 0; minute < 60; minute += 10) {
        ReclaimResult pass = reclaimer.reclaim(P);
        assertThat(pass.deletedObjects()).isZero();
        assertThat(f.readSegment(P, held)).containsExactly("v2");
        ReclaimResult scrub = reclaimer.scrub(P);
        assertThat(scrub.deletedObjects()).as("scrub leaves the grace range to ordered reclaim").isZero();
        f.clock.advance(Duration.ofMinutes(10));
      }
      ReclaimResult after = reclaimer.reclaim(P);
      assertThat(after.deletedObjects()).isEqualTo(8 + 2); // 8 segments, 2 leaf pages below 8
      assertThatThrownBy(() -> f.readSegment(P, held)).isInstanceOf(ObjectNotFoundException.class);
      assertThat(f.read(P, 8)).containsExactly("v8", "v9");
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void onlyOneOfTwoRacingReclaimersHoldsTheLease(StoreKind kind) throws Exception {
    try (LogFixture f = LogFixture.open(kind, dir, 4, 4)) {
      FencedSession writer = f.writer(P, 1);
      retained(f, writer, 12, 9);
      f.clock.advance(DELAY);
      AtomicInteger active = new AtomicInteger();
      AtomicInteger maxActive = new AtomicInteger();
      DeleteRateLimiter probe = n -> {
        maxActive.accumulateAndGet(active.incrementAndGet(), Math::max);
        Thread.sleep(20);
        active.decrementAndGet();
      };
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        for (int round = 0; round < 6; round++) {
          CountDownLatch go = new CountDownLatch(1);
          List<Future<String>> results = new ArrayList<>();
          for (String owner : List.of(OWNER_A, OWNER_B)) {
            Reclaimer r = Reclaimer.create(f.log, options(f).ownerId(owner).deleteDelay(Duration.ZERO)
                .deleteRateLimiter(probe).deleteBatchSize(1).deleteConcurrency(1).build());
            results.add(pool.submit(() -> {
              go.await();
              try (r) {
                r.reclaim(P);
                return "ran";
              } catch (LeaseHeldException e) {
                return "held";
              } catch (LeaseLostException e) {
                return "lost";
              }
            }));
          }
          go.countDown();
          List<String> outcomes = new ArrayList<>();
          for (Future<String> result : results) {
            outcomes.add(result.get(30, TimeUnit.SECONDS));
          }
          assertThat(outcomes).contains("ran");
        }
      } finally {
        pool.shutdownNow();
      }
      assertThat(maxActive.get()).as("passes deleting at once").isEqualTo(1);
      assertThat(f.catalog(P).verifyTree(f.head(P)).segments()).isEqualTo(3);
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aHeldLeaseRefusesOthersUntilItExpiresAndALostLeaseStopsTheOldOwner(StoreKind kind) {
    try (LogFixture f = LogFixture.open(kind, dir, 4, 4)) {
      FencedSession writer = f.writer(P, 1);
      retained(f, writer, 12, 9);
      AtomicReference<ReclaimResult> stolen = new AtomicReference<>();
      AtomicInteger calls = new AtomicInteger();
      Reclaimer b = Reclaimer.create(f.log, options(f).ownerId(OWNER_B).build());
      b.reclaim(P); // observes the floor; it becomes safe after the delay
      f.clock.advance(DELAY);
      // A's limiter is where A stalls: the clock passes A's lease, B refuses first, then takes over.
      DeleteRateLimiter stall = n -> {
        if (calls.incrementAndGet() == 2) {
          assertThatThrownBy(() -> b.reclaim(P)).isInstanceOf(LeaseHeldException.class)
              .satisfies(e -> assertThat(((LeaseHeldException) e).ownerId()).isEqualTo(OWNER_A));
          f.clock.advance(Duration.ofSeconds(61));
          stolen.set(b.reclaim(P));
        }
      };
      SimpleMeterRegistry meters = new SimpleMeterRegistry();
      var log = dev.objlog.Objlog.open(f.store, LogFixture.STREAM, f.log.options().toBuilder().meterRegistry(meters).build());
      try (Reclaimer a = Reclaimer.create(log, options(f).maxPassDuration(Duration.ofSeconds(20))
          .deleteRateLimiter(stall).deleteBatchSize(2).deleteConcurrency(1).build())) {
        assertThatThrownBy(() -> a.reclaim(P)).isInstanceOf(LeaseLostException.class);
      }
      b.close();
      log.close();
      // A deleted its first wave (2 segments) and nothing after B took over; B finished the rest.
      assertThat(stolen.get().deletedObjects()).isEqualTo(9 - 2 + 2);
      assertThat(Bucket.list(f.store, f.keys(P).segmentsDir())).hasSize(3);
      assertThat(stateJson(f)).doesNotContain("owner_id");
      assertThat(meters.counter(MetricNames.LIFECYCLE_LEASE_LOST, Tags.of(MetricNames.TAG_STREAM,
          LogFixture.STREAM, MetricNames.TAG_PARTITION, "2", MetricNames.TAG_OPERATION, "reclaim")).count())
          .isEqualTo(1);
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aReclaimerKilledMidPassIsResumedFromItsCheckpoint(StoreKind kind) {
    MutableClock clock = new MutableClock();
    FaultInjectingObjectStore store = FaultInjectingObjectStore.builder(kind.open(dir, clock))
        .timeout(Duration.ZERO).sleeper(d -> {}).clock(clock).build();
    try (LogFixture f = new LogFixture(store, clock, 4, 4)) {
      FencedSession writer = f.writer(P, 1);
      List<LeafEntry> segments = retained(f, writer, 12, 9);
      PartitionKeys keys = f.keys(P);
      AtomicInteger waves = new AtomicInteger();
      // The second delete wave dies with the process: every later write to the bucket fails,
      // including the lease release.
      DeleteRateLimiter killer = n -> {
        if (waves.incrementAndGet() == 2) {
          store.addRule(new FaultRule(Set.of(Operation.DELETE, Operation.COMPARE_AND_SWAP), "", Fault.ERROR_BEFORE, 1000));
        }
      };
      Reclaimer a = Reclaimer.create(f.log, options(f).deleteRateLimiter(killer).deleteBatchSize(2)
          .deleteConcurrency(1).build());
      a.reclaim(P); // records the pending floor
      clock.advance(DELAY);
      assertThatThrownBy(() -> a.reclaim(P)).isInstanceOf(TransientStoreException.class);
      a.close();
      store.clearRules();
      String checkpoint = stateJson(f);
      assertThat(checkpoint)
          .contains("\"owner_id\":\"" + OWNER_A + "\"")
          .contains("\"safe_floor_lsn\":9")
          .contains("\"segment_after_key\":\"" + f.segmentKey(P, segments.get(1)) + "\"");
      assertThat(f.store.head(f.segmentKey(P, segments.get(1)))).isEmpty();
      assertThat(f.store.head(f.segmentKey(P, segments.get(2)))).isPresent();

      try (Reclaimer b = Reclaimer.create(f.log, options(f).ownerId(OWNER_B).build())) {
        assertThatThrownBy(() -> b.reclaim(P)).isInstanceOf(LeaseHeldException.class);
        clock.advance(Duration.ofMinutes(1)); // A's lease: 3 x 20 s
        ReclaimResult resumed = b.reclaim(P);
        // The safe floor came from the checkpoint: no second wait for the delay.
        assertThat(resumed.safeFloorLsn()).isEqualTo(9);
        assertThat(resumed.deletedObjects()).isEqualTo(7 + 2);
        assertThat(resumed.hasMore()).isFalse();
      }
      assertThat(Bucket.list(f.store, keys.segmentsDir())).hasSize(3);
      assertThat(f.catalog(P).verifyTree(f.head(P)).segments()).isEqualTo(3);
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void budgetsLeaveTheRestForTheNextPassAndDryRunChangesNothing(StoreKind kind) {
    try (LogFixture f = LogFixture.open(kind, dir, 4, 4)) {
      FencedSession writer = f.writer(P, 1);
      retained(f, writer, 20, 17);
      try (Reclaimer dry = Reclaimer.create(f.log, options(f).dryRun(true).deleteDelay(Duration.ZERO).build())) {
        var before = Bucket.list(f.store, "lc/");
        ReclaimResult plan = dry.reclaim(P);
        assertThat(plan.dryRun()).isTrue();
        // 17 segments, 4 leaf pages, and the level-1 page [0, 15] the trim dropped from the head.
        assertThat(plan.candidateObjects()).isEqualTo(17 + 4 + 1);
        assertThat(plan.deletedObjects()).isZero();
        assertThat(Bucket.list(f.store, "lc/")).isEqualTo(before);
        assertThat(f.store.head(f.keys(P).gcState())).isEmpty();
      }
      try (Reclaimer r = Reclaimer.create(f.log, options(f).maxDeletesPerRun(3).deleteBatchSize(2).build())) {
        r.reclaim(P);
        f.clock.advance(DELAY);
        int passes = 0;
        long deleted = 0;
        ReclaimResult pass;
        do {
          pass = r.reclaim(P);
          assertThat(pass.deletedObjects()).isLessThanOrEqualTo(3);
          deleted += pass.deletedObjects();
          passes++;
        } while (pass.hasMore());
        assertThat(deleted).isEqualTo(17 + 4 + 1);
        assertThat(passes).isGreaterThanOrEqualTo(7);
      }
      try (Reclaimer scanner = Reclaimer.create(f.log, options(f).maxObjectsPerRun(2).build())) {
        assertThat(scanner.scrub(P).hasMore()).isTrue();
      }
      assertThat(f.catalog(P).verifyTree(f.head(P)).segments()).isEqualTo(3);
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void scrubDeletesOldOrphansOnlyAndNeverWhatTheHeadReferences(StoreKind kind) {
    try (LogFixture f = LogFixture.open(kind, dir, 4, 4);
        Reclaimer r = Reclaimer.create(f.log, options(f).build())) {
      FencedSession old = f.writer(P, 1);
      for (int i = 0; i < 6; i++) {
        f.append(old, "v" + i);
      }
      LeafEntry lostRace = f.upload(old, 3, "x");          // range owned by another segment
      LeafEntry superseded = f.upload(old, 6, "y");        // epoch 1 upload that never published
      FencedSession writer = f.writer(P, 2);
      f.append(writer, "v6");
      LeafEntry inFlight = f.upload(writer, 7, "z");       // the current writer's upload
      f.clock.advance(DELAY.minusMinutes(1));
      LeafEntry young = f.upload(writer, 2, "w");          // an orphan, but too young

      assertThat(r.scrub(P).deletedObjects()).as("orphans younger than the delay").isZero();
      f.clock.advance(Duration.ofMinutes(1));
      ReclaimResult scrub = r.scrub(P);
      assertThat(scrub.deletedObjects()).isEqualTo(2);
      assertThat(f.store.head(f.segmentKey(P, lostRace))).isEmpty();
      assertThat(f.store.head(f.segmentKey(P, superseded))).isEmpty();
      assertThat(f.store.head(f.segmentKey(P, inFlight))).isPresent();
      assertThat(f.store.head(f.segmentKey(P, young))).isPresent();
      assertThat(f.read(P, 0)).containsExactly("v0", "v1", "v2", "v3", "v4", "v5", "v6");
      f.clock.advance(DELAY);
      assertThat(r.scrub(P).deletedObjects()).as("the young orphan, now old").isEqualTo(1);
      assertThat(f.store.head(f.segmentKey(P, inFlight))).isPresent();
      assertThat(f.catalog(P).verifyTree(f.head(P)).segments()).isEqualTo(7);
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void pagesOfAFailedCommitAreQuarantinedOnlyOnceTheHeadMovedPastThem(StoreKind kind) {
    MutableClock clock = new MutableClock();
    FaultInjectingObjectStore store = FaultInjectingObjectStore.builder(kind.open(dir, clock))
        .timeout(Duration.ZERO).sleeper(d -> {}).clock(clock).build();
    try (LogFixture f = new LogFixture(store, clock, 2, 2);
        Reclaimer r = Reclaimer.create(f.log, options(f).build())) {
      FencedSession writer = f.writer(P, 1);
      f.append(writer, "v0");
      // The next publish seals a leaf page, but its head swap fails: an orphan page at
      // generation head + 1, exactly like a writer's pages just before its commit.
      LeafEntry entry = f.upload(writer, 1, "v1");
      store.addRule(new FaultRule(Set.of(Operation.COMPARE_AND_SWAP), f.keys(P).head(), Fault.ERROR_BEFORE, 3));
      assertThatThrownBy(() -> writer.publish(List.of(entry))).isInstanceOf(TransientStoreException.class);
      assertThat(Bucket.list(store, f.keys(P).pageLevelDir(0))).hasSize(1);
      clock.advance(DELAY.multipliedBy(2));
      ReclaimResult early = r.scrub(P);
      assertThat(early.quarantinedObjects()).as("generation not below the head's").isZero();

      // A new writer moves the head on with different segments: now the page is garbage.
      FencedSession next = f.writer(P, 2);
      f.append(next, "w1");
      f.append(next, "w2");
      ReclaimResult seen = r.scrub(P);
      assertThat(seen.quarantinedObjects()).isEqualTo(1);
      assertThat(seen.deletedObjects()).as("the orphan segment [1] of epoch 1, long old").isEqualTo(1);
      assertThat(stateJson(f)).contains("\"page_quarantine\":[{\"key\":\"" + f.keys(P).pageLevelDir(0));
      assertThat(r.scrub(P).deletedObjects()).as("not yet old in quarantine").isZero();
      clock.advance(DELAY);
      ReclaimResult deleted = r.scrub(P);
      assertThat(deleted.deletedObjects()).isEqualTo(1);
      assertThat(deleted.pendingQuarantine()).isZero();
      assertThat(f.catalog(P).verifyTree(f.head(P)).segments()).isEqualTo(3);
      assertThat(f.read(P, 0)).containsExactly("v0", "w1", "w2");
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void stagingOfSupersededWritersIsDeletedOnceOld(StoreKind kind) {
    try (LogFixture f = LogFixture.open(kind, dir, 4, 4);
        Reclaimer r = Reclaimer.create(f.log, options(f).build())) {
      FencedSession first = f.writer(P, 1);
      f.append(first, "v0");
      PartitionKeys keys = f.keys(P);
      byte[] uuid = new byte[16];
      uuid[15] = 9;
      String stale = keys.staging(1, 1, uuid, "part-000001");
      f.store.putIfAbsent(stale, new byte[10]);
      FencedSession second = f.writer(P, 2);
      String current = keys.staging(1, 2, uuid, "part-000001");
      f.store.putIfAbsent(current, new byte[10]);
      f.store.putIfAbsent(keys.stagingDir() + "not-a-staging-key", new byte[1]);

      assertThat(r.reclaim(P).deletedObjects()).isZero();
      f.clock.advance(DELAY);
      ReclaimResult pass = r.reclaim(P);
      assertThat(pass.deletedObjects()).isEqualTo(1);
      assertThat(pass.invalidObjects()).isEqualTo(1);
      assertThat(f.store.head(stale)).isEmpty();
      assertThat(f.store.head(current)).isPresent();
      assertThat(second.isUsable()).isTrue();
    }
  }

  @Test
  void theStateObjectIsCompactGoOrderedJsonAndIsValidated() {
    GcState s = GcState.fresh("a/b", 3);
    s.updatedUnixMs = 5;
    assertThat(new String(s.encode(), StandardCharsets.UTF_8))
        .isEqualTo("{\"version\":1,\"stream_id\":\"a/b\",\"partition\":3,\"updated_unix_ms\":5}");
    s.ownerId = OWNER_A;
    s.leaseUntilUnixMs = 9;
    s.safeFloorLsn = -2L;
    s.hasPendingFloor = true;
    s.pendingFloorLsn = -1L;
    s.segmentAfterKey = "k<&>";
    s.maxPageLevel = 2;
    s.pageQuarantine.add(new GcState.Quarantined("p", 7, 8, 9));
    String json = new String(s.encode(), StandardCharsets.UTF_8);
    assertThat(json).isEqualTo("{\"version\":1,\"stream_id\":\"a/b\",\"partition\":3,\"owner_id\":\"" + OWNER_A
        + "\",\"lease_until_unix_ms\":9,\"safe_floor_lsn\":18446744073709551614,"
        + "\"pending_floor_lsn\":18446744073709551615,\"has_pending_floor\":true,"
        + "\"segment_after_key\":\"k\\u003c\\u0026\\u003e\",\"max_page_level\":2,"
        + "\"page_quarantine\":[{\"key\":\"p\",\"size_bytes\":7,\"observed_generation\":8,\"observed_unix_ms\":9}],"
        + "\"updated_unix_ms\":5}");
    GcState back = GcState.decode(json.getBytes(StandardCharsets.UTF_8), "a/b", 3);
    assertThat(back.encode()).isEqualTo(s.encode());

    String[] bad = {
        "{\"version\":2,\"stream_id\":\"a/b\",\"partition\":3,\"updated_unix_ms\":5}",
        "{\"version\":1,\"stream_id\":\"a/c\",\"partition\":3,\"updated_unix_ms\":5}",
        "{\"version\":1,\"stream_id\":\"a/b\",\"partition\":4,\"updated_unix_ms\":5}",
        "{\"version\":1,\"stream_id\":\"a/b\",\"partition\":3}",
        "{\"version\":1,\"stream_id\":\"a/b\",\"partition\":3,\"owner_id\":\"ABC\",\"updated_unix_ms\":5}",
        "{\"version\":1,\"stream_id\":\"a/b\",\"partition\":3,\"safe_floor_lsn\":4,\"segment_reclaimed_through_lsn\":5,\"updated_unix_ms\":5}",
        "{\"version\":1,\"stream_id\":\"a/b\",\"partition\":3,\"safe_floor_lsn\":4,\"page_reclaimed_through_lsn\":5,\"updated_unix_ms\":5}",
        "{\"version\":1,\"stream_id\":\"a/b\",\"partition\":3,\"safe_floor_lsn\":4,\"pending_floor_lsn\":4,\"has_pending_floor\":true,\"updated_unix_ms\":5}",
        "{\"version\":1,\"stream_id\":\"a/b\",\"partition\":3,\"page_quarantine\":[{\"key\":\"p\"},{\"key\":\"p\"}],\"updated_unix_ms\":5}",
        "{\"version\":1,\"stream_id\":\"a/b\",\"partition\":3,\"surprise\":1,\"updated_unix_ms\":5}",
    };
    for (String json2 : bad) {
      assertThatThrownBy(() -> GcState.decode(json2.getBytes(StandardCharsets.UTF_8), "a/b", 3))
          .as(json2).isInstanceOf(dev.objlog.CorruptObjectException.class);
    }
  }

  @Test
  void theTokenBucketSpreadsLargeRequestsInBurstSizedChunks() throws Exception {
    MutableClock clock = new MutableClock();
    List<Duration> waits = new ArrayList<>();
    TokenBucketDeleteLimiter limiter = TokenBucketDeleteLimiter.of(100, 50, clock, d -> {
      waits.add(d);
      clock.advance(d);
    });
    long start = clock.millis();
    limiter.acquire(50);
    assertThat(waits).isEmpty();
    limiter.acquire(120);
    assertThat(clock.millis() - start).isEqualTo(1200);
    assertThat(waits).hasSize(3);
    clock.advance(Duration.ofSeconds(10));
    waits.clear();
    limiter.acquire(50);
    assertThat(waits).as("the bucket refilled to its burst, not beyond").isEmpty();
    limiter.acquire(1);
    assertThat(waits).hasSize(1);
    assertThatThrownBy(() -> TokenBucketDeleteLimiter.of(0, 1)).isInstanceOf(dev.objlog.InvalidArgumentException.class);
  }

  @Test
  void metersCountDeletedObjectsBytesPassesAndTheQuarantine() {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    try (LogFixture f = LogFixture.open(StoreKind.MEMORY, dir, 2, 2)) {
      var log = dev.objlog.Objlog.open(f.store, LogFixture.STREAM,
          f.log.options().toBuilder().meterRegistry(meters).build());
      FencedSession writer = f.writer(P, 1);
      List<LeafEntry> segments = retained(f, writer, 7, 3);
      try (Reclaimer r = Reclaimer.create(log, options(f).deleteDelay(Duration.ZERO).build())) {
        ReclaimResult pass = r.reclaim(P);
        ReclaimResult scrub = r.scrub(P);
        assertThat(scrub.pendingQuarantine()).isPositive();
        Tags tags = Tags.of(MetricNames.TAG_STREAM, LogFixture.STREAM, MetricNames.TAG_PARTITION, "2");
        Tags reclaim = tags.and(MetricNames.TAG_OPERATION, "reclaim");
        assertThat(meters.counter(MetricNames.LIFECYCLE_DELETED_OBJECTS, reclaim).count()).isEqualTo(pass.deletedObjects());
        assertThat(meters.counter(MetricNames.LIFECYCLE_DELETED_BYTES, reclaim).count()).isEqualTo(pass.deletedBytes());
        assertThat(pass.deletedBytes()).isGreaterThan(segments.get(0).sizeBytes());
        assertThat(meters.counter(MetricNames.LIFECYCLE_PASSES, reclaim.and(MetricNames.TAG_OUTCOME, "done")).count()).isEqualTo(1);
        assertThat(meters.get(MetricNames.LIFECYCLE_QUARANTINE).tags(tags).gauge().value())
            .isEqualTo(scrub.pendingQuarantine());
      }
      log.close();
    }
  }
}
