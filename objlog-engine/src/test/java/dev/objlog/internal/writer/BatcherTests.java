package dev.objlog.internal.writer;

import static dev.objlog.internal.writer.WriterFixtures.manualCuts;
import static dev.objlog.internal.writer.WriterFixtures.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.ObjlogException;
import dev.objlog.TimestampOrderException;
import dev.objlog.WriterBackpressureException;
import dev.objlog.WriterClosedException;
import dev.objlog.WriterOptions;
import dev.objlog.WriterState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The batcher on its own: LSN assignment, cuts by records and by age, backpressure, and what a
 * terminal failure takes off its queue. Background steps run only when the test steps them, and
 * the publisher is never told of a ready segment, so cut segments stay pending.
 */
class BatcherTests {

  private static WriterParts parts(WriterOptions options) {
    WriterParts parts = new WriterParts(options);
    parts.autoPublish = false;
    return parts;
  }

  private static WriterState state(WriterParts parts) {
    parts.lock.lock();
    try {
      return parts.batcher.stateLocked(parts.publisher.committedLocked());
    } finally {
      parts.lock.unlock();
    }
  }

  @Test
  void recordsGetDenseLsnsFromTheHeadsNextLsnAndAnOlderTimestampIsRefusedWithoutTakingOne() {
    try (WriterParts parts = parts(manualCuts().build())) {
      assertThat(parts.batcher.append(record(5, "a")).lsn()).isZero();
      assertThat(parts.batcher.append(record(5, "b")).lsn()).isEqualTo(1);

      assertThatThrownBy(() -> parts.batcher.append(record(4, "c"))).isInstanceOf(TimestampOrderException.class);

      assertThat(parts.batcher.append(record(6, "d")).lsn()).as("the refused record took no LSN").isEqualTo(2);
      assertThat(state(parts).bufferedRecords()).isEqualTo(3);
    }
  }

  @Test
  void aBatchIsCutWhenItReachesMaxRecordsAndTheNextRecordStartsTheNextSegment() {
    try (WriterParts parts = parts(manualCuts().batch(Duration.ZERO, 64L << 20, 2).build())) {
      parts.batcher.append(record(1, "a"));
      parts.batcher.append(record(2, "b"));
      parts.batcher.append(record(3, "c"));

      WriterState state = state(parts);
      assertThat(state.inflightSegments()).as("segments cut").isEqualTo(1);
      assertThat(state.bufferedRecords()).as("records in the batch being built").isEqualTo(1);
      parts.runAll();
      assertThat(parts.ready).singleElement().satisfies(s -> {
        assertThat(s.baseLsn).isZero();
        assertThat(s.entry.recordCount()).isEqualTo(2);
      });
    }
  }

  @Test
  void aBatchIsCutByItsAgeTimerOnceMaxDelayHasPassed() {
    try (WriterParts parts = parts(manualCuts().batch(Duration.ofMillis(50), 64L << 20, 1000).build())) {
      parts.batcher.append(record(1, "a"));
      assertThat(state(parts).inflightSegments()).isZero();

      parts.runAll();

      assertThat(state(parts).inflightSegments()).as("cut by the timer").isEqualTo(1);
      assertThat(parts.ready).hasSize(1);
    }
  }

  @Test
  void failingFastACutBeyondMaxPendingSegmentsIsRefusedAndTheBatchIsKept() {
    WriterOptions options = manualCuts()
        .backpressure(new WriterOptions.BackpressurePolicy(1, 256L << 20, true)).build();
    try (WriterParts parts = parts(options)) {
      parts.batcher.append(record(1, "a"));
      parts.batcher.cut();
      parts.batcher.append(record(2, "b"));

      assertThatThrownBy(parts.batcher::cut).isInstanceOf(WriterBackpressureException.class)
          .hasMessageContaining("1 segments");

      WriterState state = state(parts);
      assertThat(state.inflightSegments()).isEqualTo(1);
      assertThat(state.bufferedRecords()).as("the refused cut kept the batch").isEqualTo(1);
      assertThat(state.failure()).isNull();
    }
  }

  @Test
  void aTerminalFailureTakesOffTheBatchAndEveryCutSegmentNotBeingPublished() {
    try (WriterParts parts = parts(manualCuts().build())) {
      parts.batcher.append(record(1, "a"));
      parts.batcher.cut();
      parts.runAll();
      parts.batcher.append(record(2, "b"));
      parts.batcher.cut();
      parts.batcher.append(record(3, "c"));
      List<Segment> publishing;
      List<Segment> dropped = new ArrayList<>();
      ObjlogException cause = new ObjlogException("planted");
      parts.lock.lock();
      try {
        publishing = parts.batcher.takeReadyLocked();
        assertThat(parts.batcher.failLocked(cause, dropped)).as("first failure").isTrue();
        assertThat(parts.batcher.failLocked(new ObjlogException("later"), new ArrayList<>())).isFalse();
      } finally {
        parts.lock.unlock();
      }

      assertThat(publishing).singleElement().satisfies(s -> assertThat(s.stage).isEqualTo(Segment.Stage.PUBLISHING));
      assertThat(dropped).extracting(s -> s.baseLsn).containsExactlyInAnyOrder(1L, 2L);
      assertThat(dropped).allSatisfy(s -> assertThat(s.stage).isEqualTo(Segment.Stage.ABANDONED));
      assertThat(state(parts).inflightSegments()).as("only the publishing group stays").isEqualTo(1);
      assertThat(state(parts).failure()).isSameAs(cause);
      assertThatThrownBy(() -> parts.batcher.append(record(4, "d"))).isInstanceOf(WriterClosedException.class)
          .hasCause(cause);
    }
  }
}
