package dev.objlog.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.LsnExpiredException;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.internal.catalog.FencedSession;
import dev.objlog.internal.retention.RetentionApplier;
import dev.objlog.store.ObjectStore;
import dev.objlog.testing.LogFixture;
import dev.objlog.testing.MutableClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The lifecycle's key paths against a real protocol server: retention request and apply, the
 * state/lease object's create-only and compare-and-swap writes, ordered listing after a key,
 * batched deletes, scrub of an orphan segment and a quarantined page, and lease contention.
 * Provider test classes call {@link #run} with their store.
 */
public final class ProviderLifecycleScenario {
  private ProviderLifecycleScenario() {}

  public static void run(ObjectStore store) {
    MutableClock clock = new MutableClock();
    Duration delay = Duration.ofHours(1);
    String prefix = "lc-" + UUID.randomUUID().toString().substring(0, 8);
    LogFixture f = new LogFixture(store, clock, 2, 2, prefix);
    int p = 5;
    try (Reclaimer reclaimer = Reclaimer.create(f.log, ReclaimerOptions.builder().clock(clock)
            .deleteDelay(delay).deleteBatchSize(3).deleteConcurrency(2).listPageSize(4).build());
        Reclaimer other = Reclaimer.create(f.log, ReclaimerOptions.builder().clock(clock)
            .deleteDelay(delay).build())) {
      PartitionKeys keys = f.keys(p);
      FencedSession writer = f.writer(p, 1);
      List<LeafEntry> segments = new ArrayList<>();
      for (int i = 0; i < 9; i++) {
        segments.add(f.append(writer, "v" + i));
      }
      LeafEntry orphan = f.upload(writer, 7, "orphan"); // a lost race for [7]
      f.log.requestRetention(p, 1, 6);
      assertThat(RetentionApplier.apply(f.runtime(), writer).oldestLsn()).isEqualTo(6);

      ReclaimResult first = reclaimer.reclaim(p);
      assertThat(first.deletedObjects()).isZero();
      clock.advance(delay);
      ReclaimResult second = reclaimer.reclaim(p);
      assertThat(second.safeFloorLsn()).isEqualTo(6);
      // 6 segments below 6, leaf pages [0,1] [2,3] [4,5] and the level-1 page [0,3].
      assertThat(second.deletedObjects()).isEqualTo(6 + 3 + 1);
      for (LeafEntry gone : segments.subList(0, 6)) {
        assertThat(store.head(f.segmentKey(p, gone))).isEmpty();
      }
      assertThatThrownBy(() -> f.read(p, 5)).isInstanceOf(LsnExpiredException.class);
      assertThat(f.read(p, 6)).containsExactly("v6", "v7", "v8");

      ReclaimResult scrub = reclaimer.scrub(p);
      assertThat(scrub.deletedObjects()).as("the orphan segment").isEqualTo(1);
      assertThat(store.head(f.segmentKey(p, orphan))).isEmpty();
      assertThat(scrub.quarantinedObjects()).as("the trimmed pages [4,7] and [0,7]").isEqualTo(2);
      clock.advance(delay);
      assertThat(reclaimer.scrub(p).deletedObjects()).isEqualTo(2);

      // What remains is the reachable tree plus the maintenance objects, and it verifies.
      TreeSet<String> expected = Bucket.reachable(f, p);
      expected.add(keys.retentionMailbox());
      expected.add(keys.gcState());
      assertThat(Bucket.list(store, prefix + "/").keySet()).containsExactlyElementsOf(expected);
      assertThat(f.catalog(p).verifyTree(f.head(p)).segments()).isEqualTo(3);

      // The lease is a real compare-and-swap on this provider: a held lease refuses others.
      GcState held = GcState.decode(store.get(keys.gcState()).bytes(), LogFixture.STREAM, p);
      held.ownerId = reclaimer.options().ownerId();
      held.leaseUntilUnixMs = clock.millis() + 60_000;
      store.compareAndSwap(keys.gcState(), store.get(keys.gcState()).token(), held.encode());
      assertThatThrownBy(() -> other.reclaim(p)).isInstanceOf(LeaseHeldException.class);
      assertThat(reclaimer.reclaim(p).deletedObjects()).isZero();
      assertThat(other.reclaim(p).hasMore()).isFalse();
    } finally {
      f.log.close();
    }
  }
}
