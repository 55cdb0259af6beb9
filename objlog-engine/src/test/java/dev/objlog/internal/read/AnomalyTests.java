package dev.objlog.internal.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.IntegrityException;
import dev.objlog.LsnExpiredException;
import dev.objlog.ObjlogOptions;
import dev.objlog.internal.metrics.MetricNames;
import dev.objlog.read.Freshness;
import dev.objlog.read.PartitionReader;
import dev.objlog.read.ReadRecord;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.StoredObject;
import dev.objlog.store.memory.MemoryObjectStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What a reader does when the bucket moved under the head it holds: one refresh and retry, an
 * expired LSN below the new floor, and integrity failures for objects that are not what the
 * catalog committed.
 */
class AnomalyTests {

  private static List<String> keys(ObjectStore store, String prefix) {
    List<String> out = new ArrayList<>();
    String after = "";
    while (true) {
      var page = store.list(prefix, after, 1000);
      for (ObjectMetadata m : page.entries()) {
        out.add(m.key());
      }
      if (!page.hasMore()) {
        return out;
      }
      after = page.nextAfterKey();
    }
  }

  private static List<String> segmentKeys(TestLog t) {
    return keys(t.store, "t/segments/");
  }

  /**
   * Replaces partition 2 of {@code t} with what retention would leave: segments and head of a
   * partition whose floor is 20, at a higher generation than the current head.
   */
  private static void trimTo20(TestLog t) {
    MemoryObjectStore scratchStore = new MemoryObjectStore();
    try (TestLog scratch = TestLog.open(scratchStore)) {
      scratch.log.initializePartition(2, 20);
      TestLog.Writer w = scratch.writer(2);
      for (int i = 0; i < 6; i++) {
        w.commitSegments(1, 1, 500 + i);
      }
      t.store.delete(segmentKeys(t));
      String headKey = t.runtime.keys(2).head();
      for (String key : keys(scratchStore, "t/")) {
        if (!key.equals(headKey)) {
          t.store.putIfAbsent(key, scratchStore.get(key).bytes());
        }
      }
      StoredObject current = t.store.get(headKey);
      t.store.compareAndSwap(headKey, current.token(), scratchStore.get(headKey).bytes());
    }
  }

  @Test
  void aSegmentMissingUnderAnOldHeadRefreshesOnceAndReportsTheNewFloor() {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    try (TestLog t = TestLog.open(new MemoryObjectStore(), ObjlogOptions.builder().meterRegistry(meters))) {
      TestLog.Writer w = t.writer(2);
      w.commitSegments(3, 3, 100); // [0, 9), generation 4
      PartitionReader p = t.log.reader().partition(2);
      assertThat(p.read(0, 1).records()).hasSize(1);

      trimTo20(t);

      assertThatThrownBy(() -> p.read(3, 10, Freshness.CACHED))
          .isInstanceOfSatisfying(LsnExpiredException.class, e -> {
            assertThat(e.requestedLsn()).isEqualTo(3);
            assertThat(e.oldestLsn()).isEqualTo(20);
            assertThat(e.nextLsn()).isEqualTo(26);
          });
      assertThat(meters.find(MetricNames.READER_RETRIES).counter().count()).isEqualTo(1);
      assertThat(p.read(20, 100, Freshness.CACHED).records()).extracting(ReadRecord::lsn)
          .containsExactly(20L, 21L, 22L, 23L, 24L, 25L);
    }
  }

  @Test
  void aReplayThatLosesItsSegmentsToRetentionFailsAsExpired() {
    try (TestLog t = TestLog.open(new MemoryObjectStore())) {
      t.writer(2).commitSegments(4, 3, 100);
      PartitionReader p = t.log.newReader(dev.objlog.read.ReaderOptions.builder().readAheadBlocks(0).build())
          .partition(2);
      try (Stream<ReadRecord> s = p.replay(0)) {
        var it = s.iterator();
        assertThat(it.next().lsn()).isZero();
        trimTo20(t);
        assertThatThrownBy(() -> {
          while (it.hasNext()) {
            it.next();
          }
        }).isInstanceOf(LsnExpiredException.class);
      }
    }
  }

  @Test
  void aSegmentStillMissingAfterTheRefreshIsReported() {
    try (TestLog t = TestLog.open(new MemoryObjectStore())) {
      t.writer(2).commitSegments(2, 3, 100);
      t.store.delete(segmentKeys(t));
      PartitionReader p = t.log.reader().partition(2);
      assertThatThrownBy(() -> p.read(0, 10)).isInstanceOf(ObjectNotFoundException.class);
    }
  }

  @Test
  void aSegmentObjectThatIsNotTheCommittedOneFailsItsIntegrityCheck() {
    try (TestLog t = TestLog.open(new MemoryObjectStore())) {
      TestLog.Writer w = t.writer(2);
      w.commitSegments(1, 3, 100);
      String committed = segmentKeys(t).get(0);
      w.commitSegments(1, 3, 200);
      String other = segmentKeys(t).stream().filter(k -> !k.equals(committed)).findFirst().orElseThrow();
      byte[] impostor = t.store.get(other).bytes();
      t.store.delete(List.of(committed));
      t.store.putIfAbsent(committed, impostor);

      PartitionReader p = t.log.reader().partition(2);
      assertThatThrownBy(() -> p.read(0, 10)).isInstanceOf(IntegrityException.class)
          .hasMessageContaining("base_lsn");
      assertThat(p.read(3, 10).records()).hasSize(3);
    }
  }
}
