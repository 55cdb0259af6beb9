package dev.objlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.store.memory.MemoryObjectStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Listing a partition's reachable segments page by page ({@link Objlog#segments}). */
class ObjlogSegmentsTests {

  @Test
  void pagesCoverEveryReachableSegmentInLsnOrderAndStartAtTheFloorAfterRetention() {
    try (Objlog log = Objlog.open(new MemoryObjectStore(), "demo/segments")) {
      assertThat(log.segments(0, 0, 10)).as("a partition that does not exist").isEmpty();
      // Segments are cut only by flush, never by the batch's age.
      WriterOptions flushOnly = WriterOptions.builder().batch(Duration.ofHours(1), 1 << 20, 1000).build();
      try (PartitionWriter writer = log.openWriter(0, flushOnly)) {
        for (int i = 0; i < 5; i++) {
          writer.append(LogRecord.of(1_000 + i, "a" + i));
          writer.append(LogRecord.of(1_000 + i, "b" + i));
          writer.flush(); // one segment of two records
        }
        List<SegmentRef> all = new ArrayList<>();
        long from = 0;
        SegmentPage page;
        do {
          page = log.segments(0, from, 2).orElseThrow();
          all.addAll(page.segments());
          from = page.nextLsn();
        } while (page.hasMore());
        assertThat(all).extracting(SegmentRef::baseLsn).containsExactly(0L, 2L, 4L, 6L, 8L);
        assertThat(all).extracting(SegmentRef::recordCount).containsOnly(2L);
        assertThat(page.nextLsn()).isEqualTo(10);
        assertThat(page.head().nextLsn()).isEqualTo(10);

        assertThat(log.segments(0, 5, 1).orElseThrow().segments()).extracting(SegmentRef::baseLsn)
            .as("the page starts with the segment holding the LSN").containsExactly(4L);

        log.requestRetention(0, 1, 4);
        writer.applyRetention();
        SegmentPage afterRetention = log.segments(0, 0, 10).orElseThrow();
        assertThat(afterRetention.head().oldestLsn()).isEqualTo(4);
        assertThat(afterRetention.segments()).extracting(SegmentRef::baseLsn).containsExactly(4L, 6L, 8L);
        assertThat(afterRetention.hasMore()).isFalse();
      }
      assertThatThrownBy(() -> log.segments(0, 0, 0)).isInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("limit");
      assertThatThrownBy(() -> log.segments(0, 0, 1025)).isInstanceOf(InvalidArgumentException.class);
    }
  }
}
