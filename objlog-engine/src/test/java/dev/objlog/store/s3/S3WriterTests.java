package dev.objlog.store.s3;

import static dev.objlog.internal.writer.WriterFixtures.PARTITION;
import static dev.objlog.internal.writer.WriterFixtures.STREAM;
import static dev.objlog.internal.writer.WriterFixtures.await;
import static dev.objlog.internal.writer.WriterFixtures.awaitFailure;
import static dev.objlog.internal.writer.WriterFixtures.logOptions;
import static dev.objlog.internal.writer.WriterFixtures.manualCuts;
import static dev.objlog.internal.writer.WriterFixtures.readCommitted;
import static dev.objlog.internal.writer.WriterFixtures.record;
import static dev.objlog.internal.writer.WriterFixtures.segmentObjects;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.AppendResult;
import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.PartitionWriter;
import dev.objlog.StaleWriterException;
import dev.objlog.internal.writer.WriterFixtures.Committed;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.RetryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The writer against a real S3 protocol server (S3Proxy in process, conditional writes made
 * atomic): multipart segment uploads completed create-only, head compare-and-swaps by ETag, and
 * fencing between two writers.
 */
class S3WriterTests {
  private static S3ProxyServer server;
  private static int buckets;

  @BeforeAll
  static void startServer() {
    server = S3ProxyServer.start(true);
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  private static ObjectStore newStore() {
    String bucket = "objlog-writer-" + (++buckets);
    server.createBucket(bucket);
    return S3ObjectStore.builder()
        .bucket(bucket)
        .endpoint(server.endpoint)
        .pathStyle(true)
        .region("us-east-1")
        .credentials(S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY)
        .partSize(S3ObjectStore.MIN_PART_SIZE)
        .retryPolicy(new RetryPolicy(3, Duration.ofMillis(20), Duration.ofMillis(200), 0.5, Duration.ofSeconds(30)))
        .build();
  }

  @Test
  void recordsWrittenThroughS3AreCommittedAndReadBackIncludingAMultipartSegment() {
    ObjectStore store = newStore();
    Random random = new Random(5);
    List<byte[]> values = new ArrayList<>();
    try (Objlog log = Objlog.open(store, STREAM, logOptions().build());
        PartitionWriter writer = log.openWriter(PARTITION, manualCuts().build())) {
      List<AppendResult> results = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        results.add(writer.append(record(i, "small-" + i)));
        values.add(("small-" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
      writer.cut();
      // About 12 MiB of incompressible values: a segment uploaded in three 5 MiB parts.
      for (int i = 0; i < 3; i++) {
        byte[] value = new byte[4 * 1024 * 1024 - 64];
        random.nextBytes(value);
        values.add(value);
        results.add(writer.append(LogRecord.of(100, value)));
      }
      assertThat(writer.flush().nextLsn()).isEqualTo(23);
      for (AppendResult r : results) {
        await(r.committed());
      }
    }
    Committed committed = readCommitted(store, PARTITION);
    assertThat(committed.segments()).hasSize(2);
    assertThat(committed.segments().get(1).sizeBytes()).isGreaterThan(2L * S3ObjectStore.MIN_PART_SIZE);
    for (int i = 0; i < values.size(); i++) {
      assertThat(committed.records().get(i).value()).isEqualTo(values.get(i));
    }
  }

  @Test
  void aSupersededWriterIsFencedOutByTheHeadETag() {
    ObjectStore store = newStore();
    try (Objlog log = Objlog.open(store, STREAM, logOptions().build())) {
      PartitionWriter first = log.openWriter(PARTITION, manualCuts().build());
      first.append(record(1, "a"));
      first.flush();
      AppendResult lost = first.append(record(2, "lost"));
      PartitionWriter second = log.openWriter(PARTITION, manualCuts().build());
      assertThatThrownBy(first::flush).isInstanceOf(StaleWriterException.class);
      assertThat(awaitFailure(lost.committed())).isInstanceOf(StaleWriterException.class);
      second.append(record(2, "b"));
      assertThat(second.flush().nextLsn()).isEqualTo(2);
      second.close();
      first.close();
    }
    Committed committed = readCommitted(store, PARTITION);
    assertThat(committed.values()).containsExactly("a", "b");
    assertThat(segmentObjects(store, PARTITION)).as("the fenced writer's segment is an orphan").hasSize(3);
  }
}
