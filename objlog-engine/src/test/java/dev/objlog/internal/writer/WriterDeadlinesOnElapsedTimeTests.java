package dev.objlog.internal.writer;

import static dev.objlog.internal.writer.WriterFixtures.PARTITION;
import static dev.objlog.internal.writer.WriterFixtures.STREAM;
import static dev.objlog.internal.writer.WriterFixtures.awaitFailure;
import static dev.objlog.internal.writer.WriterFixtures.keys;
import static dev.objlog.internal.writer.WriterFixtures.logOptions;
import static dev.objlog.internal.writer.WriterFixtures.manualCuts;
import static dev.objlog.internal.writer.WriterFixtures.readCommitted;
import static dev.objlog.internal.writer.WriterFixtures.record;
import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.AppendResult;
import dev.objlog.Objlog;
import dev.objlog.ObjlogException;
import dev.objlog.PartitionWriter;
import dev.objlog.WriterDeadlineExceededException;
import dev.objlog.WriterOptions;
import dev.objlog.store.TransientStoreException;
import dev.objlog.store.memory.MemoryObjectStore;
import dev.objlog.testing.MutableClock;
import dev.objlog.testing.MutableTicker;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A writer's deadlines (segment finalize, catalog publish) are elapsed time on the log's ticker:
 * the wall clock, which only stamps what the writer writes, may be stepped by hours either way
 * while requests fail and are retried, and the writer neither dies of it nor stretches a deadline.
 * Time is virtual: the store's script moves the wall clock and the ticker at each failing request.
 */
class WriterDeadlinesOnElapsedTimeTests {
  private static final Duration FINALIZE = Duration.ofMinutes(5);
  private static final Duration PUBLISH = Duration.ofSeconds(30);

  // Readings start just below the overflow and cross it in every test: deadlines must be compared
  // by subtracting readings, as for System.nanoTime.
  private final MutableTicker ticker = new MutableTicker(Long.MAX_VALUE - Duration.ofSeconds(20).toNanos());
  private final MutableClock clock = new MutableClock();
  private final ScriptedFailureStore store =
      new ScriptedFailureStore(new MemoryObjectStore(clock), keys(PARTITION).head());

  private Objlog open() {
    return Objlog.open(store, STREAM, logOptions().clock(clock).ticker(ticker).sleeper(d -> {}).build());
  }

  private static WriterOptions options() {
    return manualCuts().timeouts(new WriterOptions.Timeouts(FINALIZE, PUBLISH)).build();
  }

  private static TransientStoreException refused(String what, int call) {
    return new TransientStoreException(what + " " + call + " refused by the test", false);
  }

  @Test
  void wallClockStepsOfHoursBetweenUploadRetriesNeitherKillTheWriterNorLoseRecords() {
    List<Duration> steps = List.of(Duration.ofHours(6), Duration.ofHours(-12), Duration.ofDays(30),
        Duration.ofDays(-60));
    try (Objlog log = open()) {
      PartitionWriter writer = log.openWriter(PARTITION, options());
      store.onUploadStart(call -> {
        if (call <= steps.size()) {
          clock.advance(steps.get(call - 1));
          ticker.advance(Duration.ofSeconds(1));
          throw refused("upload", call);
        }
      });
      writer.append(record(1, "a"));
      writer.append(record(2, "b"));
      writer.flush();
      writer.append(record(3, "c"));
      writer.flush();

      assertThat(store.uploadCalls.get()).as("four refused uploads, then one per segment").isEqualTo(6);
      assertThat(writer.state().failure()).as("writer failure after the wall-clock steps").isNull();
      writer.close();
    }
    assertThat(readCommitted(store, PARTITION).values()).containsExactly("a", "b", "c");
  }

  @Test
  void wallClockStepsOfHoursBetweenCommitRetriesNeitherKillTheWriterNorLoseRecords() {
    // Forward only, so that wherever the writer checks its deadline between attempts, the wall
    // clock is hours to days past it.
    List<Duration> steps = List.of(Duration.ofHours(6), Duration.ofHours(6), Duration.ofDays(1), Duration.ofDays(30));
    try (Objlog log = open()) {
      PartitionWriter writer = log.openWriter(PARTITION, options());
      store.onHeadSwap(call -> {
        if (call <= steps.size()) {
          clock.advance(steps.get(call - 1));
          ticker.advance(Duration.ofSeconds(1));
          throw refused("head swap", call);
        }
      });
      writer.append(record(1, "a"));
      writer.flush();
      writer.append(record(2, "b"));
      writer.flush();

      assertThat(store.headSwapCalls.get()).as("four refused head swaps, then one per commit").isEqualTo(6);
      assertThat(writer.state().failure()).as("writer failure after the wall-clock steps").isNull();
      writer.close();
    }
    assertThat(readCommitted(store, PARTITION).values()).containsExactly("a", "b");
  }

  @Test
  void anUploadFailingPastTheFinalizeTimeoutOnTheTickerFailsTheWriterThoughTheWallClockWentBack() {
    try (Objlog log = open()) {
      PartitionWriter writer = log.openWriter(PARTITION, options());
      // Each attempt takes a minute of elapsed time while the wall clock goes back an hour.
      store.onUploadStart(call -> {
        clock.advance(Duration.ofHours(-1));
        ticker.advance(Duration.ofMinutes(1));
        throw refused("upload", call);
      });
      AppendResult appended = writer.append(record(1, "a"));
      writer.cut();

      Throwable failure = awaitFailure(appended.committed());
      assertThat(failure).isInstanceOf(ObjlogException.class)
          .hasMessageContaining("past the segment finalize timeout of PT5M");
      assertThat(failure).isInstanceOfSatisfying(WriterDeadlineExceededException.class, late -> {
        assertThat(late.deadline()).isEqualTo(WriterDeadlineExceededException.Deadline.SEGMENT_FINALIZE);
        assertThat(late.limit()).isEqualTo(FINALIZE);
        assertThat(late.elapsed()).as("elapsed from the cut to giving up").isEqualTo(Duration.ofMinutes(6));
      });
      // Attempt n ends n minutes after the cut: the 5th ends exactly at the timeout (not past it),
      // the 6th past it. An earlier end cut the deadline short, a later one stretched it.
      assertThat(store.uploadCalls.get()).as("upload attempts until the deadline ended them").isEqualTo(6);
    }
  }

  @Test
  void aCommitFailingPastThePublishTimeoutOnTheTickerFailsTheWriterThoughTheWallClockWentBack() {
    try (Objlog log = open()) {
      PartitionWriter writer = log.openWriter(PARTITION, options());
      // Each head swap takes ten seconds of elapsed time while the wall clock goes back an hour.
      store.onHeadSwap(call -> {
        clock.advance(Duration.ofHours(-1));
        ticker.advance(Duration.ofSeconds(10));
        throw refused("head swap", call);
      });
      AppendResult appended = writer.append(record(1, "a"));
      writer.cut();

      Throwable failure = awaitFailure(appended.committed());
      assertThat(failure).isInstanceOf(ObjlogException.class)
          .hasMessageContaining("past the catalog publish timeout of PT30S");
      assertThat(failure).isInstanceOfSatisfying(WriterDeadlineExceededException.class, late -> {
        assertThat(late.deadline()).isEqualTo(WriterDeadlineExceededException.Deadline.CATALOG_PUBLISH);
        assertThat(late.limit()).isEqualTo(PUBLISH);
        assertThat(late.elapsed()).as("elapsed when the writer gave up").isGreaterThan(PUBLISH);
      });
      assertThat(Duration.ofSeconds(10L * store.headSwapCalls.get()))
          .as("elapsed time of the refused head swaps when the writer gave up").isGreaterThan(PUBLISH);
    }
  }
}
