package dev.objlog.internal.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.LsnExpiredException;
import dev.objlog.ObjlogOptions;
import dev.objlog.internal.metrics.MetricNames;
import dev.objlog.read.LogReader;
import dev.objlog.read.PartitionReader;
import dev.objlog.read.ReadRecord;
import dev.objlog.read.ReaderOptions;
import dev.objlog.store.memory.MemoryObjectStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Bulk replay with read-ahead. */
class ReplayTests {
  @TempDir Path dir;

  private static List<Long> lsns(long from, long to) {
    return LongStream.range(from, to).boxed().toList();
  }

  private static List<Long> replayed(PartitionReader p, long from) {
    try (Stream<ReadRecord> s = p.replay(from)) {
      return s.map(ReadRecord::lsn).toList();
    }
  }

  @ParameterizedTest
  @EnumSource(TestLog.StoreKind.class)
  void replayReturnsEveryRecordInOrderWhateverTheReadAhead(TestLog.StoreKind kind) {
    try (TestLog t = TestLog.open(kind.open(dir))) {
      TestLog.Writer w = t.writer(2);
      for (int i = 0; i < 6; i++) {
        w.commitSegments(1, 9, 100 + 9L * i);
      }
      for (int depth : new int[] {0, 1, 3, 64}) {
        try (LogReader reader = t.log.newReader(ReaderOptions.builder().readAheadBlocks(depth).build())) {
          PartitionReader p = reader.partition(2);
          assertThat(replayed(p, 0)).as("depth %d", depth).containsExactlyElementsOf(lsns(0, 54));
          assertThat(replayed(p, 13)).containsExactlyElementsOf(lsns(13, 54));
          try (Stream<ReadRecord> s = p.replay(20, 31)) {
            assertThat(s.toList()).allSatisfy(r -> assertThat(r.valueAsString()).isEqualTo(TestLog.value(2, r.lsn())))
                .extracting(ReadRecord::lsn).containsExactlyElementsOf(lsns(20, 31));
          }
          assertThat(replayed(p, 54)).isEmpty();
          assertThat(replayed(p, 1000)).isEmpty();
        }
      }
    }
  }

  @Test
  void replayFetchesBlocksAheadOfTheConsumer() {
    ObservedStore store = new ObservedStore(new MemoryObjectStore());
    try (TestLog t = TestLog.open(store)) {
      TestLog.Writer w = t.writer(2);
      for (int i = 0; i < 4; i++) {
        w.commitSegments(1, 12, 100 + 12L * i);
      }
      try (LogReader reader = t.log.newReader(ReaderOptions.builder().readAheadBlocks(6).build())) {
        PartitionReader p = reader.partition(2);
        p.read(0, 1); // opens the first segment, so every later range read comes from the read-ahead
        store.resetCounts();
        store.rangeRendezvous.set(2);
        assertThat(replayed(p, 0)).containsExactlyElementsOf(lsns(0, 48));
        assertThat(store.maxRangeInFlight.get()).as("range reads in flight at once").isGreaterThanOrEqualTo(2);
      }
      try (LogReader reader = t.log.newReader(ReaderOptions.builder().readAheadBlocks(0).build())) {
        store.resetCounts();
        assertThat(replayed(reader.partition(2), 0)).containsExactlyElementsOf(lsns(0, 48));
        assertThat(store.maxRangeInFlight.get()).as("without read-ahead, one request at a time").isEqualTo(1);
      }
    }
  }

  @Test
  void replayDoesNotFillTheBlockCache() {
    try (TestLog t = TestLog.open(new MemoryObjectStore())) {
      t.writer(2).commitSegments(3, 10, 100);
      try (DefaultLogReader reader = (DefaultLogReader) t.log.newReader(ReaderOptions.defaults())) {
        assertThat(replayed(reader.partition(2), 0)).hasSize(30);
        assertThat(reader.segments().cachedBlocks()).isZero();
        reader.partition(2).read(0, 30);
        assertThat(reader.segments().cachedBlocks()).isPositive();
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 4})
  void stoppingEarlyClosesTheReplay(int depth) {
    try (TestLog t = TestLog.open(new MemoryObjectStore())) {
      t.writer(2).commitSegments(5, 10, 100);
      try (LogReader reader = t.log.newReader(ReaderOptions.builder().readAheadBlocks(depth).build())) {
        try (Stream<ReadRecord> s = reader.partition(2).replay(3)) {
          assertThat(s.limit(4).map(ReadRecord::lsn).toList()).containsExactly(3L, 4L, 5L, 6L);
        }
        assertThat(replayed(reader.partition(2), 45)).containsExactlyElementsOf(lsns(45, 50));
      }
    }
  }

  /** The meter is told per block, not per record: whole and early-stopped replays both add up. */
  @ParameterizedTest
  @ValueSource(ints = {0, 4})
  void replayCountsEveryRecordItReturned(int depth) {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    try (TestLog t = TestLog.open(new MemoryObjectStore(), ObjlogOptions.builder().meterRegistry(meters))) {
      t.writer(2).commitSegments(5, 10, 100);
      try (LogReader reader = t.log.newReader(ReaderOptions.builder().readAheadBlocks(depth).build())) {
        assertThat(replayed(reader.partition(2), 0)).hasSize(50);
        try (Stream<ReadRecord> s = reader.partition(2).replay(3)) {
          assertThat(s.limit(4).count()).isEqualTo(4);
        }
      }
    }
    assertThat(meters.get(MetricNames.READER_RECORDS).counter().count()).isEqualTo(54.0);
  }

  @Test
  void replayBelowTheFloorIsExpiredAndAnEmptyPartitionReplaysNothing() {
    try (TestLog t = TestLog.open(new MemoryObjectStore())) {
      t.log.initializePartition(2, 10);
      t.writer(2).commitSegments(1, 3, 100);
      PartitionReader p = t.log.reader().partition(2);
      assertThatThrownBy(() -> p.replay(9)).isInstanceOf(LsnExpiredException.class);
      assertThat(replayed(p, 10)).containsExactly(10L, 11L, 12L);
      assertThat(replayed(t.log.reader().partition(5), 0)).isEmpty();
    }
  }
}
