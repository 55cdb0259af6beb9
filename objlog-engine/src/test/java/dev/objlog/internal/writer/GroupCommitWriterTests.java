package dev.objlog.internal.writer;

import static dev.objlog.internal.writer.WriterFixtures.PARTITION;
import static dev.objlog.internal.writer.WriterFixtures.await;
import static dev.objlog.internal.writer.WriterFixtures.logOptions;
import static dev.objlog.internal.writer.WriterFixtures.manualCuts;
import static dev.objlog.internal.writer.WriterFixtures.readCommitted;
import static dev.objlog.internal.writer.WriterFixtures.record;
import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.AppendResult;
import dev.objlog.Objlog;
import dev.objlog.PartitionWriter;
import dev.objlog.WriterOptions;
import dev.objlog.internal.metrics.MetricNames;
import dev.objlog.internal.writer.WriterFixtures.Committed;
import dev.objlog.internal.writer.WriterFixtures.StoreKind;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class GroupCommitWriterTests {
  /** Segments appended while one head write is held; below the 64 pending, so appends never wait. */
  private static final int ROUND = 50;

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void segmentsReadyTogetherShareOneHeadWriteWhenTheHeadIsSlow(StoreKind kind) {
    GatedStore store = new GatedStore(kind.open(dir));
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    WriterOptions options = manualCuts()
        .batch(Duration.ZERO, 1L << 20, 1)
        .backpressure(64, 256L << 20)
        .build();
    int segments = 200;
    try (Objlog log = Objlog.open(store, WriterFixtures.STREAM, logOptions().meterRegistry(meters).build());
        PartitionWriter writer = log.openWriter(PARTITION, options)) {
      int casBefore = store.casCalls.get();
      // The head is slow by the test's say-so, not by a delay the segments may or may not beat:
      // in each round the head write is held at the gate until every segment of the round is
      // uploaded, so the round's segments are ready together whatever the machine's load.
      List<AppendResult> results = new ArrayList<>();
      for (int from = 0; from < segments; from += ROUND) {
        int uploadedBefore = store.uploadsCompleted.get();
        store.closeCasGate();
        try {
          for (int i = from; i < from + ROUND; i++) {
            results.add(writer.append(record(i, "r" + i)));
          }
          BackpressureAndAbortTests.eventually("the round's segments uploaded behind the held head write",
              () -> store.uploadsCompleted.get() - uploadedBefore == ROUND && store.casWaiting.get() == 1);
        } finally {
          store.openCasGate();
        }
        for (AppendResult r : results.subList(from, from + ROUND)) {
          await(r.committed());
        }
      }
      assertThat(writer.flush().nextLsn()).isEqualTo(segments);
      for (AppendResult r : results) {
        await(r.committed());
      }
      int headWrites = store.casCalls.get() - casBefore;
      assertThat((double) headWrites / segments)
          .as("head writes per segment with up to 64 pending (%d head writes)", headWrites)
          .isLessThan(0.5);
      assertThat(meters.get(MetricNames.WRITER_HEAD_WRITES).counter().count()).isEqualTo(headWrites);
      assertThat(meters.get(MetricNames.WRITER_SEGMENTS).counter().count()).isEqualTo(segments);

      Committed committed = readCommitted(store, PARTITION);
      assertThat(committed.segments()).hasSize(segments);
      assertThat(committed.records()).hasSize(segments);
      assertThat(committed.head().generation())
          .as("one generation for the takeover and one per head write")
          .isEqualTo(1 + headWrites);
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aLoneSegmentCostsOneHeadWrite(StoreKind kind) {
    GatedStore store = new GatedStore(kind.open(dir));
    try (Objlog log = WriterFixtures.open(store); PartitionWriter writer = log.openWriter(PARTITION, manualCuts().build())) {
      for (int i = 0; i < 5; i++) {
        int before = store.casCalls.get();
        writer.append(record(i, "r" + i));
        writer.flush();
        assertThat(store.casCalls.get() - before).isEqualTo(1);
      }
    }
  }
}
