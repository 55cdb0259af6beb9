package dev.objlog.internal.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.Header;
import dev.objlog.LsnExpiredException;
import dev.objlog.internal.catalog.PartitionCatalog;
import dev.objlog.read.Freshness;
import dev.objlog.read.LogReader;
import dev.objlog.read.PartitionReader;
import dev.objlog.read.ReadRecord;
import dev.objlog.read.ReadResult;
import dev.objlog.read.ReaderOptions;
import dev.objlog.store.memory.MemoryObjectStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Reads by LSN, by timestamp and exact fetches, on every local store kind. */
class ReadByLsnTests {
  @TempDir Path dir;

  private static List<ReadRecord> readAll(PartitionReader reader, long from, int batch) {
    List<ReadRecord> all = new ArrayList<>();
    long pos = from;
    while (true) {
      ReadResult r = reader.read(pos, batch);
      if (r.isEmpty()) {
        assertThat(r.nextLsn()).isEqualTo(pos);
        return all;
      }
      assertThat(r.records().get(0).lsn()).isEqualTo(pos);
      all.addAll(r.records());
      pos = r.nextLsn();
    }
  }

  @ParameterizedTest
  @EnumSource(TestLog.StoreKind.class)
  void readsCrossSegmentBlockAndPageBoundariesInOrder(TestLog.StoreKind kind) {
    try (TestLog t = TestLog.open(kind.open(dir))) {
      TestLog.Writer w = t.writer(7);
      for (int i = 0; i < 7; i++) {
        w.commitSegments(1, 6, 1_000 + 6L * i); // 7 segments: sealed leaves and an index page with limits 2/2
      }
      PartitionReader reader = t.log.reader().partition(7);

      for (int batch : new int[] {1, 4, 7, 100}) {
        List<ReadRecord> all = readAll(reader, 0, batch);
        assertThat(all).extracting(ReadRecord::lsn).containsExactlyElementsOf(LongStream.range(0, 42).boxed().toList());
        assertThat(all).allSatisfy(r -> {
          assertThat(r.partition()).isEqualTo(7);
          assertThat(r.valueAsString()).isEqualTo(TestLog.value(7, r.lsn()));
          assertThat(r.timestampMs()).isEqualTo(1_000 + r.lsn());
          if (r.lsn() % 3 == 0) {
            assertThat(r.headers()).containsExactly(Header.of("k", Long.toString(r.lsn())));
          } else {
            assertThat(r.headers()).isEmpty();
          }
        });
      }
      assertThat(readAll(reader, 23, 5)).extracting(ReadRecord::lsn)
          .containsExactlyElementsOf(LongStream.range(23, 42).boxed().toList());
    }
  }

  @ParameterizedTest
  @EnumSource(TestLog.StoreKind.class)
  void limitsDefaultToAndAreCappedAtTheBatchMaximum(TestLog.StoreKind kind) {
    try (TestLog t = TestLog.open(kind.open(dir))) {
      t.writer(1).commitSegments(3, 4, 10);
      try (LogReader reader = t.log.newReader(ReaderOptions.builder().maxRecordsPerBatch(5).build())) {
        PartitionReader p = reader.partition(1);
        assertThat(p.read(0, 0).records()).hasSize(5);
        assertThat(p.read(0, -3).records()).hasSize(5);
        assertThat(p.read(0, 1000).records()).hasSize(5);
        ReadResult two = p.read(3, 2);
        assertThat(two.records()).extracting(ReadRecord::lsn).containsExactly(3L, 4L);
        assertThat(two.nextLsn()).isEqualTo(5);
        assertThat(p.read(10, 5).records()).extracting(ReadRecord::lsn).containsExactly(10L, 11L);
        assertThat(p.read(10, 5).head().nextLsn()).isEqualTo(12);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestLog.StoreKind.class)
  void readsAtOrAfterTheNextLsnAreEmpty(TestLog.StoreKind kind) {
    try (TestLog t = TestLog.open(kind.open(dir))) {
      t.writer(0).commitSegments(2, 3, 10);
      PartitionReader p = t.log.reader().partition(0);
      for (long start : new long[] {6, 7, 1_000_000, -1L}) {
        ReadResult r = p.read(start, 10, Freshness.LATEST);
        assertThat(r.records()).isEmpty();
        assertThat(r.nextLsn()).isEqualTo(start);
        assertThat(r.head().nextLsn()).isEqualTo(6);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestLog.StoreKind.class)
  void aMissingPartitionReadsAsEmptyAtZero(TestLog.StoreKind kind) {
    try (TestLog t = TestLog.open(kind.open(dir))) {
      PartitionReader p = t.log.reader().partition(3);
      assertThat(p.read(0, 10).records()).isEmpty();
      assertThat(p.head(Freshness.LATEST).nextLsn()).isZero();
      assertThat(p.head(Freshness.LATEST).hasLastSegment()).isFalse();
      assertThat(p.fetch(0)).isEmpty();
      assertThat(p.readFromTimestamp(0, 10).records()).isEmpty();
    }
  }

  @ParameterizedTest
  @EnumSource(TestLog.StoreKind.class)
  void belowTheRetentionFloorIsExpiredWithTheRange(TestLog.StoreKind kind) {
    try (TestLog t = TestLog.open(kind.open(dir))) {
      t.log.initializePartition(2, 10);
      t.writer(2).commitSegments(2, 3, 50);
      PartitionReader p = t.log.reader().partition(2);
      assertThatThrownBy(() -> p.read(3, 10))
          .isInstanceOfSatisfying(LsnExpiredException.class, e -> {
            assertThat(e.requestedLsn()).isEqualTo(3);
            assertThat(e.oldestLsn()).isEqualTo(10);
            assertThat(e.nextLsn()).isEqualTo(16);
          });
      assertThatThrownBy(() -> p.read(9, 10, Freshness.CACHED)).isInstanceOf(LsnExpiredException.class);
      assertThatThrownBy(() -> p.fetch(0)).isInstanceOf(LsnExpiredException.class);
      assertThat(p.read(10, 100).records()).extracting(ReadRecord::lsn)
          .containsExactly(10L, 11L, 12L, 13L, 14L, 15L);
    }
  }

  @ParameterizedTest
  @EnumSource(TestLog.StoreKind.class)
  void fetchReturnsExactlyTheRecordAtAnLsn(TestLog.StoreKind kind) {
    try (TestLog t = TestLog.open(kind.open(dir))) {
      t.writer(5).commitSegments(4, 5, 100);
      PartitionReader p = t.log.reader().partition(5);
      for (long lsn : new long[] {0, 4, 5, 13, 19}) {
        assertThat(p.fetch(lsn)).hasValueSatisfying(r -> {
          assertThat(r.lsn()).isEqualTo(lsn);
          assertThat(r.valueAsString()).isEqualTo(TestLog.value(5, lsn));
        });
      }
      assertThat(p.fetch(20)).isEmpty();
      assertThat(p.fetch(-1L)).isEmpty();
    }
  }

  @Test
  void aColdFetchLoadsOnlyThePagesOnItsPathAndASmallSegmentInOneRequest() {
    ObservedStore store = new ObservedStore(new MemoryObjectStore());
    try (TestLog t = TestLog.open(store)) {
      TestLog.Writer w = t.writer(7);
      for (int i = 0; i < 7; i++) {
        w.commitSegments(1, 6, 1_000 + 6L * i); // leaves of 2 segments: most LSNs are not at a leaf's start
      }
    }
    for (long lsn : new long[] {0, 6, 13, 29, 41}) {
      int pathGets;
      try (TestLog cold = TestLog.open(store)) {
        store.resetCounts();
        PartitionCatalog catalog = cold.runtime.catalog(7);
        assertThat(catalog.findSegment(catalog.loadHead().orElseThrow().head(), lsn)).isPresent();
        pathGets = store.gets.get() + store.conditionalGets.get();
      }
      try (TestLog cold = TestLog.open(store)) {
        store.resetCounts();
        assertThat(cold.log.reader().partition(7).fetch(lsn)).hasValueSatisfying(r -> {
          assertThat(r.lsn()).isEqualTo(lsn);
          assertThat(r.valueAsString()).isEqualTo(TestLog.value(7, lsn));
        });
        assertThat(store.gets.get() + store.conditionalGets.get()).as("head and catalog pages, LSN " + lsn)
            .isEqualTo(pathGets);
        assertThat(store.rangeGets.get()).as("requests for the segment, LSN " + lsn).isEqualTo(1);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestLog.StoreKind.class)
  void readFromTimestampStartsAtTheFirstRecordAtOrAfterItEvenAcrossDuplicateBoundaries(TestLog.StoreKind kind) {
    try (TestLog t = TestLog.open(kind.open(dir))) {
      TestLog.Writer w = t.writer(4);
      // lsn:      0    1    2    3  |  4    5    6    7  |  8    9    10 | 11   12
      w.commit(100, 100, 105, 105);
      w.commit(105, 105, 105, 110);
      w.commit(110, 110, 115);
      w.commit(120, 120);
      PartitionReader p = t.log.reader().partition(4);
      assertThat(p.readFromTimestamp(0, 1).records().get(0).lsn()).isZero();
      assertThat(p.readFromTimestamp(100, 1).records().get(0).lsn()).isZero();
      assertThat(p.readFromTimestamp(101, 1).records().get(0).lsn()).isEqualTo(2);
      assertThat(p.readFromTimestamp(105, 1).records().get(0).lsn()).isEqualTo(2);
      assertThat(p.readFromTimestamp(106, 1).records().get(0).lsn()).isEqualTo(7);
      assertThat(p.readFromTimestamp(110, 3).records()).extracting(ReadRecord::lsn).containsExactly(7L, 8L, 9L);
      assertThat(p.readFromTimestamp(111, 1).records().get(0).lsn()).isEqualTo(10);
      assertThat(p.readFromTimestamp(116, 10).records()).extracting(ReadRecord::lsn).containsExactly(11L, 12L);
      ReadResult none = p.readFromTimestamp(121, 10);
      assertThat(none.records()).isEmpty();
      assertThat(none.nextLsn()).isEqualTo(13);
    }
  }
}
