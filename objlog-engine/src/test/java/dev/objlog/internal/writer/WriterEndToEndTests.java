package dev.objlog.internal.writer;

import static dev.objlog.internal.writer.WriterFixtures.PARTITION;
import static dev.objlog.internal.writer.WriterFixtures.logOptions;
import static dev.objlog.internal.writer.WriterFixtures.readCommitted;
import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.Header;
import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.PartitionWriter;
import dev.objlog.WriterOptions;
import dev.objlog.format.HashAlgorithm;
import dev.objlog.format.segment.Codec;
import dev.objlog.format.segment.SegmentRecord;
import dev.objlog.internal.metrics.MetricNames;
import dev.objlog.internal.writer.WriterFixtures.Committed;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriterEndToEndTests {
  @TempDir Path dir;

  /**
   * Many writers in turn build a catalog several index levels deep on the filesystem store; the
   * result is then read back with the format packages alone and every record is checked.
   */
  @Test
  void aMultiLevelCatalogWrittenByTheWriterDecodesWithTheFormatPackagesAlone() {
    long seed = 20240611L;
    Random random = new Random(seed);
    int total = 0;
    ObjectStore store = FilesystemObjectStore.open(dir.resolve("bucket"));
    try (Objlog log = Objlog.open(store, WriterFixtures.STREAM, logOptions().catalogLimits(2, 2).build())) {
      long ts = 1_700_000_000_000L;
      for (int round = 0; round < 3; round++) {
        WriterOptions options = WriterOptions.builder()
            .batch(Duration.ofMillis(1), 1L << 20, 1 + random.nextInt(5))
            .pipeline(new WriterOptions.Pipeline(256, round == 1 ? Codec.NONE : Codec.ZSTD, 3,
                round == 2 ? HashAlgorithm.CRC32C : HashAlgorithm.XXH64, null))
            .build();
        try (PartitionWriter writer = log.openWriter(PARTITION, options)) {
          for (int i = 0; i < 40; i++) {
            ts += random.nextInt(3);
            byte[] value = new byte[random.nextInt(300)];
            random.nextBytes(value);
            writer.append(LogRecord.of(ts, List.of(Header.of("n", Integer.toString(total))), value));
            total++;
          }
        }
      }
    }
    Committed committed = readCommitted(store, PARTITION);
    assertThat(committed.records()).as("seed %d", seed).hasSize(total);
    assertThat(committed.maxPageLevel()).as("pages at several levels").isGreaterThanOrEqualTo(2);
    assertThat(committed.head().writerEpoch()).isEqualTo(3);
    for (int i = 0; i < total; i++) {
      SegmentRecord r = committed.records().get(i);
      assertThat(r.lsn()).isEqualTo(i);
      assertThat(new String(r.headers().get(0).value(), StandardCharsets.UTF_8)).isEqualTo(Integer.toString(i));
    }
    // Replay the values with the same seed to check the bytes too.
    Random replay = new Random(seed);
    int n = 0;
    for (int round = 0; round < 3; round++) {
      replay.nextInt(5);
      for (int i = 0; i < 40; i++) {
        replay.nextInt(3);
        byte[] value = new byte[replay.nextInt(300)];
        replay.nextBytes(value);
        assertThat(committed.records().get(n++).value()).isEqualTo(value);
      }
    }
  }

  @Test
  void metersCountRecordsAndSegmentsAndTheGaugesLeaveWithTheWriter() throws Exception {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    ObjectStore store = FilesystemObjectStore.open(dir.resolve("bucket"));
    try (Objlog log = Objlog.open(store, WriterFixtures.STREAM, logOptions().meterRegistry(meters).build())) {
      PartitionWriter writer = log.openWriter(PARTITION, WriterFixtures.manualCuts().build());
      writer.append(LogRecord.of(1, "abc"));
      writer.append(LogRecord.of(1, "de"));
      writer.flush();
      assertThat(meters.get(MetricNames.WRITER_RECORDS).counter().count()).isEqualTo(2);
      assertThat(meters.get(MetricNames.WRITER_BYTES).counter().count()).isEqualTo(16 + 3 + 16 + 2);
      assertThat(meters.get(MetricNames.WRITER_SEGMENTS).counter().count()).isEqualTo(1);
      assertThat(meters.get(MetricNames.WRITER_PUBLISH).timer().count()).isEqualTo(1);
      assertThat(meters.get(MetricNames.WRITER_SEGMENT_FINALIZE).timer().count()).isEqualTo(1);
      assertThat(meters.get(MetricNames.WRITER_COMMIT_LATENCY).timer().count()).isEqualTo(1);
      assertThat(meters.get(MetricNames.WRITER_INFLIGHT_SEGMENTS).tag(MetricNames.TAG_PARTITION, "3").gauge().value())
          .isZero();
      writer.close();
      assertThat(meters.find(MetricNames.WRITER_INFLIGHT_SEGMENTS).gauge()).isNull();

      PartitionWriter aborted = log.openWriter(PARTITION);
      aborted.abort();
      assertThat(meters.get(MetricNames.WRITER_FAILURES).tag(MetricNames.TAG_OUTCOME, "aborted").counter().count())
          .isEqualTo(1);
    }
  }
}
