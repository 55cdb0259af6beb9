package dev.objlog.internal.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.InvalidArgumentException;
import dev.objlog.LsnExpiredException;
import dev.objlog.read.CheckpointAheadException;
import dev.objlog.read.CheckpointInvalidException;
import dev.objlog.read.CheckpointMismatchException;
import dev.objlog.read.Cursor;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.read.PartitionReader;
import dev.objlog.read.ReadRecord;
import dev.objlog.read.ReadResult;
import dev.objlog.read.ReaderClosedException;
import dev.objlog.store.memory.MemoryObjectStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Cursors and their checkpoints (PROTOCOLS.md §5.5). */
class CursorCheckpointTests {
  @TempDir Path dir;

  @Test
  void checkpointJsonIsCompactInFieldOrderWithPlainNumbers() {
    CursorCheckpoint c = CursorCheckpoint.of("demo/orders", 7, 4);
    assertThat(c.toJson()).isEqualTo("{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":7,\"next_lsn\":4}");
    assertThat(c.toJsonBytes()).isEqualTo(c.toJson().getBytes(StandardCharsets.UTF_8));

    CursorCheckpoint top = CursorCheckpoint.of("a/b", -1, -1L);
    assertThat(top.toJson())
        .isEqualTo("{\"version\":1,\"stream_id\":\"a/b\",\"partition\":4294967295,\"next_lsn\":18446744073709551615}");
    assertThat(CursorCheckpoint.parse(top.toJson())).isEqualTo(top);
    assertThat(CursorCheckpoint.parse(c.toJsonBytes())).isEqualTo(c);
  }

  @Test
  void parsingToleratesWhitespaceAndUnknownFieldsAndKeepsTheVersion() {
    assertThat(CursorCheckpoint.parse(
        " {\"next_lsn\": 9, \"partition\": 2, \"stream_id\": \"s/x\", \"version\": 1, \"updated_unix_ms\": 5} "))
        .isEqualTo(CursorCheckpoint.of("s/x", 2, 9));
    assertThat(CursorCheckpoint.parse("{\"version\":2,\"stream_id\":\"s\",\"partition\":0,\"next_lsn\":0}").version())
        .isEqualTo(2);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "", "null", "[]", "{", "{\"version\":1}",
      "{\"version\":1,\"stream_id\":\"s\",\"partition\":1}",
      "{\"version\":1,\"stream_id\":7,\"partition\":1,\"next_lsn\":0}",
      "{\"version\":1,\"stream_id\":\"s\",\"partition\":-1,\"next_lsn\":0}",
      "{\"version\":1,\"stream_id\":\"s\",\"partition\":4294967296,\"next_lsn\":0}",
      "{\"version\":1,\"stream_id\":\"s\",\"partition\":1,\"next_lsn\":18446744073709551616}",
      "{\"version\":1,\"stream_id\":\"s\",\"partition\":1,\"next_lsn\":1.5}",
      "{\"version\":\"1\",\"stream_id\":\"s\",\"partition\":1,\"next_lsn\":0}",
      "{\"version\":1,\"stream_id\":\"s\",\"partition\":1,\"next_lsn\":0} x",
      "{\"version\":1,\"version\":1,\"stream_id\":\"s\",\"partition\":1,\"next_lsn\":0}"})
  void malformedCheckpointJsonIsInvalid(String json) {
    assertThatThrownBy(() -> CursorCheckpoint.parse(json)).isInstanceOf(CheckpointInvalidException.class)
        .hasMessageContaining("cursor checkpoint");
  }

  @Test
  void invalidUtf8IsInvalid() {
    assertThatThrownBy(() -> CursorCheckpoint.parse(new byte[] {'{', (byte) 0xff, '}'}))
        .isInstanceOf(CheckpointInvalidException.class);
  }

  @ParameterizedTest
  @EnumSource(TestLog.StoreKind.class)
  void aCursorAdvancesOnlyPastReturnedRecordsAndSeeks(TestLog.StoreKind kind) {
    try (TestLog t = TestLog.open(kind.open(dir))) {
      TestLog.Writer w = t.writer(7);
      w.commitSegments(2, 3, 10);
      PartitionReader p = t.log.reader().partition(7);
      Cursor c = p.cursor(0, 4);
      assertThat(c.next().records()).extracting(ReadRecord::lsn).containsExactly(0L, 1L, 2L, 3L);
      assertThat(c.position()).isEqualTo(4);
      assertThat(c.next().records()).extracting(ReadRecord::lsn).containsExactly(4L, 5L);
      ReadResult tail = c.next();
      assertThat(tail.records()).isEmpty();
      assertThat(c.position()).as("an empty batch does not move the cursor").isEqualTo(6);

      w.commitSegments(1, 2, 20);
      assertThat(c.next().records()).extracting(ReadRecord::lsn).containsExactly(6L, 7L);

      c.seek(1);
      assertThat(c.position()).isEqualTo(1);
      Cursor fork = c.fork();
      assertThat(c.next().records()).extracting(ReadRecord::lsn).containsExactly(1L, 2L, 3L, 4L);
      assertThat(fork.position()).isEqualTo(1);
      assertThat(fork.next().records().get(0).lsn()).isEqualTo(1);

      c.close();
      assertThatThrownBy(c::next).isInstanceOf(ReaderClosedException.class);
      assertThat(fork.next().records()).isNotEmpty();
    }
  }

  @Test
  void checkpointAndResumeRoundTripThroughJson() {
    try (TestLog t = TestLog.open(new MemoryObjectStore())) {
      t.writer(7).commitSegments(2, 2, 10);
      PartitionReader p = t.log.reader().partition(7);
      Cursor c = p.cursor(0, 3);
      c.next();
      CursorCheckpoint cp = c.checkpoint();
      assertThat(cp.toJson()).isEqualTo("{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":7,\"next_lsn\":3}");
      Cursor resumed = p.resume(CursorCheckpoint.parse(cp.toJson()), 0);
      assertThat(resumed.position()).isEqualTo(3);
      assertThat(resumed.next().records()).extracting(ReadRecord::lsn).containsExactly(3L);
      assertThat(resumed.checkpoint().nextLsn()).isEqualTo(4);
      // At the next LSN is a valid position; beyond it is not.
      resumed.seek(5);
      assertThatThrownBy(resumed::checkpoint).isInstanceOf(CheckpointAheadException.class);
    }
  }

  @Test
  void checkpointOfAPositionBelowTheFloorIsExpired() {
    try (TestLog t = TestLog.open(new MemoryObjectStore())) {
      t.log.initializePartition(7, 10);
      t.writer(7).commitSegments(1, 2, 10);
      Cursor c = t.log.reader().partition(7).cursor(3, 0);
      assertThatThrownBy(c::checkpoint).isInstanceOf(LsnExpiredException.class);
      assertThatThrownBy(c::next).isInstanceOf(LsnExpiredException.class);
    }
  }

  @Test
  void resumeChecksInTheSpecifiedOrder() {
    try (TestLog t = TestLog.open(new MemoryObjectStore())) {
      t.log.initializePartition(7, 10);
      t.writer(7).commitSegments(1, 4, 10); // [10, 14)
      PartitionReader p = t.log.reader().partition(7);

      // Every check fails at once; each step fixes one thing, so the next check in order shows.
      CursorCheckpoint bad = new CursorCheckpoint(2, "other/stream", 8, 99);
      assertThatThrownBy(() -> p.resume(bad, -1)).isInstanceOf(InvalidArgumentException.class);
      assertThatThrownBy(() -> p.resume(bad, 0)).isInstanceOf(CheckpointInvalidException.class)
          .hasMessageContaining("version 2");
      CursorCheckpoint v1 = new CursorCheckpoint(1, "other/stream", 8, 99);
      assertThatThrownBy(() -> p.resume(v1, 0)).isInstanceOf(CheckpointMismatchException.class)
          .hasMessageContaining("partition 8");
      CursorCheckpoint samePartition = new CursorCheckpoint(1, "other/stream", 7, 99);
      assertThatThrownBy(() -> p.resume(samePartition, 0)).isInstanceOf(CheckpointMismatchException.class)
          .hasMessageContaining("other/stream");
      CursorCheckpoint sameStreamBelow = new CursorCheckpoint(1, "demo/orders", 7, 3);
      assertThatThrownBy(() -> p.resume(sameStreamBelow, 0)).isInstanceOfSatisfying(LsnExpiredException.class, e -> {
        assertThat(e.requestedLsn()).isEqualTo(3);
        assertThat(e.oldestLsn()).isEqualTo(10);
        assertThat(e.nextLsn()).isEqualTo(14);
      });
      CursorCheckpoint ahead = new CursorCheckpoint(1, "demo/orders", 7, 15);
      assertThatThrownBy(() -> p.resume(ahead, 0)).isInstanceOf(CheckpointAheadException.class);

      assertThat(p.resume(CursorCheckpoint.of("demo/orders", 7, 10), 0).position()).isEqualTo(10);
      assertThat(p.resume(CursorCheckpoint.of("demo/orders", 7, 14), 0).next().records()).isEmpty();
    }
  }
}
