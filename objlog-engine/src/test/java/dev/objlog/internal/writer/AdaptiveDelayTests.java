package dev.objlog.internal.writer;

import static dev.objlog.internal.writer.WriterFixtures.PARTITION;
import static dev.objlog.internal.writer.WriterFixtures.open;
import static dev.objlog.internal.writer.WriterFixtures.readCommitted;
import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.WriterOptions;
import dev.objlog.store.memory.MemoryObjectStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class AdaptiveDelayTests {

  @Test
  void theBatchDelayFollowsPublishLatencyWithinItsBounds() {
    MemoryObjectStore store = new MemoryObjectStore();
    WriterOptions options = WriterOptions.builder()
        .batch(Duration.ofMillis(50), 1L << 20, 1000)
        .adaptiveDelay(new WriterOptions.AdaptiveDelay(true, Duration.ofMillis(2), Duration.ofMillis(20), 4.0))
        .build();
    try (Objlog log = open(store)) {
      WriterEngine writer = (WriterEngine) log.openWriter(PARTITION, options);
      assertThat(writer.batchDelay()).as("before any publish: the configured delay, clamped")
          .isEqualTo(Duration.ofMillis(20));
      for (int i = 0; i < 5; i++) {
        writer.append(LogRecord.of(i, "r" + i));
        writer.flush();
      }
      assertThat(writer.batchDelay()).isBetween(Duration.ofMillis(2), Duration.ofMillis(20));
      writer.close();
      assertThat(readCommitted(store, PARTITION).records()).hasSize(5);
    }
  }

  @Test
  void withoutAdaptiveDelayTheConfiguredDelayApplies() {
    try (Objlog log = open(new MemoryObjectStore())) {
      WriterEngine writer = (WriterEngine) log.openWriter(PARTITION,
          WriterOptions.builder().batch(Duration.ofMillis(7), 1L << 20, 10).build());
      assertThat(writer.batchDelay()).isEqualTo(Duration.ofMillis(7));
      writer.close();
    }
  }
}
