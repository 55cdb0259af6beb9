package dev.objlog.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.LsnExpiredException;
import dev.objlog.RetentionRequest;
import dev.objlog.RetentionResult;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.internal.catalog.FencedSession;
import dev.objlog.internal.retention.RetentionApplier;
import dev.objlog.testing.LogFixture;
import dev.objlog.testing.LogFixture.StoreKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The end-to-end scenario on the filesystem store: 15 records in 12 small segments,
 * retention before LSN 6, reclaim after the (virtual) delete delay; object counts and bytes at
 * every step, expiry below the floor, and full verification of what remains.
 */
class RetentionEndToEndTests {
  private static final int P = 1;
  /** Records per segment: 15 records in 12 segments; LSN 6 lies inside segment 4 ([5, 6]). */
  private static final int[] SIZES = {1, 1, 1, 2, 2, 1, 2, 1, 1, 1, 1, 1};

  @TempDir Path dir;

  @Test
  void fifteenRecordsRetainedBeforeSixReclaimedAfterTheDelay() {
    Duration delay = Duration.ofHours(24);
    try (LogFixture f = LogFixture.open(StoreKind.FILESYSTEM, dir, 4, 2);
        Reclaimer reclaimer = Reclaimer.create(f.log, ReclaimerOptions.builder()
            .clock(f.clock).deleteDelay(delay).build())) {
      PartitionKeys keys = f.keys(P);
      FencedSession writer = f.writer(P, 1);
      List<LeafEntry> segments = new ArrayList<>();
      int lsn = 0;
      for (int size : SIZES) {
        String[] values = new String[size];
        for (int i = 0; i < size; i++) {
          values[i] = "record-" + lsn++;
        }
        segments.add(f.append(writer, values));
      }
      assertThat(lsn).isEqualTo(15);

      // Step 1: 12 segments, 3 leaf pages + 1 index page (leaf 4, index 2), the head.
      TreeMap<String, Long> written = Bucket.list(f.store, "lc/");
      long segmentBytes = segments.stream().mapToLong(LeafEntry::sizeBytes).sum();
      assertThat(Bucket.list(f.store, keys.segmentsDir())).hasSize(12);
      assertThat(Bucket.bytes(Bucket.list(f.store, keys.segmentsDir()))).isEqualTo(segmentBytes);
      assertThat(Bucket.list(f.store, keys.pageLevelDir(0))).hasSize(3);
      assertThat(Bucket.list(f.store, keys.pageLevelDir(1))).hasSize(1);
      assertThat(written).hasSize(17);
      assertThat(f.read(P, 0)).hasSize(15);

      // Step 2: the request changes nothing readable; it adds the mailbox.
      RetentionRequest request = f.log.requestRetention(P, 1, 6);
      assertThat(request.outcome()).isEqualTo(RetentionRequest.Outcome.CREATED);
      assertThat(f.read(P, 0)).hasSize(15);
      assertThat(Bucket.list(f.store, "lc/")).hasSize(18);

      // Step 3: the writer applies it: floor 5 (the segment [5, 6] holds LSN 6), one trimmed copy
      // of the straddling index page, nothing deleted.
      RetentionResult applied = RetentionApplier.apply(f.runtime(), writer);
      assertThat(applied.applied()).isTrue();
      assertThat(applied.requestedLsn()).isEqualTo(6);
      assertThat(applied.oldestLsn()).isEqualTo(5);
      TreeMap<String, Long> afterApply = Bucket.list(f.store, "lc/");
      assertThat(afterApply).hasSize(19);
      assertThat(Bucket.list(f.store, keys.pageLevelDir(1))).hasSize(2);
      for (long expired = 0; expired < 5; expired++) {
        long at = expired;
        assertThatThrownBy(() -> f.read(P, at)).isInstanceOf(LsnExpiredException.class)
            .satisfies(e -> assertThat(((LsnExpiredException) e).oldestLsn()).isEqualTo(5));
      }
      assertThat(f.read(P, 5)).hasSize(10).first().isEqualTo("record-5");

      // Step 4: a reclaim inside the delay records the pending floor and deletes nothing.
      ReclaimResult early = reclaimer.reclaim(P);
      assertThat(early.deletedObjects()).isZero();
      assertThat(early.safeFloorLsn()).isZero();
      f.clock.advance(delay.minusSeconds(1));
      assertThat(reclaimer.reclaim(P).deletedObjects()).isZero();
      TreeMap<String, Long> graced = Bucket.list(f.store, "lc/");
      assertThat(graced).hasSize(20).containsKey(keys.gcState());
      // Readers that found the trimmed segments before retention still read them.
      assertThat(f.readSegment(P, segments.get(0))).containsExactly("record-0");

      // Step 5: after the delay: the 4 segments below 5 and the leaf page [0, 4] go.
      f.clock.advance(Duration.ofSeconds(1));
      ReclaimResult reclaimed = reclaimer.reclaim(P);
      long trimmedSegmentBytes = segments.subList(0, 4).stream().mapToLong(LeafEntry::sizeBytes).sum();
      String trimmedLeaf = Bucket.list(f.store, keys.pageLevelDir(0)).firstKey();
      long trimmedLeafBytes = graced.get(trimmedLeaf);
      assertThat(reclaimed.safeFloorLsn()).isEqualTo(5);
      assertThat(reclaimed.reclaimedThroughLsn()).isEqualTo(5);
      assertThat(reclaimed.hasMore()).isFalse();
      assertThat(reclaimed.deletedObjects()).isEqualTo(5);
      assertThat(reclaimed.deletedBytes()).isEqualTo(trimmedSegmentBytes + trimmedLeafBytes);
      TreeMap<String, Long> afterReclaim = Bucket.list(f.store, "lc/");
      assertThat(afterReclaim).hasSize(15);
      assertThat(Bucket.bytes(graced) - Bucket.bytes(afterReclaim))
          .isEqualTo(trimmedSegmentBytes + trimmedLeafBytes + (graced.get(keys.gcState()) - afterReclaim.get(keys.gcState())));
      assertThat(Bucket.list(f.store, keys.segmentsDir())).hasSize(8);
      for (LeafEntry gone : segments.subList(0, 4)) {
        assertThat(f.store.head(f.segmentKey(P, gone))).isEmpty();
      }
      assertThat(reclaimer.reclaim(P).deletedObjects()).as("nothing more to reclaim").isZero();

      // Step 6: scrub quarantines the old index page (unreachable since the trim), and deletes it
      // on a pass after the delay.
      ReclaimResult quarantine = reclaimer.scrub(P);
      assertThat(quarantine.quarantinedObjects()).isEqualTo(1);
      assertThat(quarantine.pendingQuarantine()).isEqualTo(1);
      assertThat(quarantine.deletedObjects()).isZero();
      f.clock.advance(delay);
      ReclaimResult scrubbed = reclaimer.scrub(P);
      assertThat(scrubbed.deletedObjects()).isEqualTo(1);
      assertThat(scrubbed.pendingQuarantine()).isZero();

      // What remains: exactly the reachable tree, the mailbox and the state; it verifies fully.
      Head head = f.head(P);
      assertThat(f.catalog(P).verifyTree(head).segments()).isEqualTo(8);
      TreeSet<String> expected = Bucket.reachable(f, P);
      expected.add(keys.retentionMailbox());
      expected.add(keys.gcState());
      assertThat(Bucket.list(f.store, "lc/").keySet()).containsExactlyElementsOf(expected);
      assertThat(Bucket.list(f.store, "lc/")).hasSize(14);
      assertThat(f.read(P, 5)).hasSize(10);
      assertThatThrownBy(() -> f.read(P, 4)).isInstanceOf(LsnExpiredException.class);
    }
  }
}
