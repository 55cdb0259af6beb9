package dev.objlog.store.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.ObjlogOptions;
import dev.objlog.internal.metrics.MetricNames;
import dev.objlog.internal.read.TestLog;
import dev.objlog.read.Freshness;
import dev.objlog.read.LogReader;
import dev.objlog.read.PartitionReader;
import dev.objlog.read.ReadRecord;
import dev.objlog.read.ReadResult;
import dev.objlog.read.ReaderOptions;
import dev.objlog.read.Tailer;
import dev.objlog.read.Watch;
import dev.objlog.store.RetryPolicy;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The reader's key scenarios over the S3 protocol (S3Proxy in process): reads across segments,
 * pages and blocks through ranged GETs, conditional polls answered with 304, replay with
 * read-ahead, and tailers woken by a local commit and by polling.
 */
class ReaderOnS3ProxyTests {
  private static final String BUCKET = "objlog-reader";
  private static S3ProxyServer server;

  private S3ObjectStore store;
  private SimpleMeterRegistry meters;
  private TestLog t;

  @BeforeAll
  static void startServer() {
    server = S3ProxyServer.start(true);
    server.createBucket(BUCKET);
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  @BeforeEach
  void open() {
    store = S3ObjectStore.builder()
        .bucket(BUCKET)
        .endpoint(server.endpoint)
        .pathStyle(true)
        .region("us-east-1")
        .credentials(S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY)
        .retryPolicy(new RetryPolicy(3, Duration.ofMillis(20), Duration.ofMillis(200), 0.5, Duration.ofSeconds(30)))
        .build();
    meters = new SimpleMeterRegistry();
    t = TestLog.open(store, ObjlogOptions.builder().meterRegistry(meters));
  }

  @AfterEach
  void close() {
    t.close();
    store.close();
  }

  private double refreshes(String outcome) {
    var c = meters.find(MetricNames.READER_HEAD_REFRESH).tag(MetricNames.TAG_OUTCOME, outcome).counter();
    return c == null ? 0 : c.count();
  }

  @Test
  void readsReplaysAndPollsOverS3() {
    TestLog.Writer w = t.writer(1);
    for (int i = 0; i < 5; i++) {
      w.commitSegments(1, 7, 1_000 + 7L * i);
    }
    PartitionReader p = t.log.reader().partition(1);
    ReadResult first = p.read(3, 10);
    assertThat(first.records()).extracting(ReadRecord::lsn).containsExactlyElementsOf(LongStream.range(3, 13).boxed().toList());
    assertThat(first.records()).allSatisfy(r -> assertThat(r.valueAsString()).isEqualTo(TestLog.value(1, r.lsn())));
    assertThat(p.readFromTimestamp(1_020, 1).records().get(0).lsn()).isEqualTo(20);
    assertThat(p.fetch(34)).hasValueSatisfying(r -> assertThat(r.timestampMs()).isEqualTo(1_034));
    try (Stream<ReadRecord> s = p.replay(0)) {
      assertThat(s.map(ReadRecord::lsn).toList()).containsExactlyElementsOf(LongStream.range(0, 35).boxed().toList());
    }

    double unchanged = refreshes("unchanged");
    assertThat(p.head(Freshness.LATEST).nextLsn()).isEqualTo(35);
    assertThat(refreshes("unchanged") - unchanged).as("S3 answered the poll with 304").isEqualTo(1);
  }

  @Test
  void tailersWakeOnLocalCommitsAndOnPolls() throws Exception {
    TestLog.Writer w = t.writer(2);
    w.commitSegments(1, 2, 10);
    try (LogReader hourly = t.log.newReader(ReaderOptions.builder().pollInterval(Duration.ofHours(1)).build());
        Watch watch = hourly.watch(2)) {
      Tailer tailer = watch.tail(2, 2, 0);
      CompletableFuture<ReadResult> next = blockedNext(tailer);
      w.commitSegments(1, 2, 20);
      w.announce();
      assertThat(next.get(30, TimeUnit.SECONDS).records()).extracting(ReadRecord::lsn).containsExactly(2L, 3L);
    }
    try (LogReader polling = t.log.newReader(ReaderOptions.builder().pollInterval(Duration.ofMillis(50)).build());
        Watch watch = polling.watch(2)) {
      Tailer tailer = watch.tail(2, 4, 0);
      assertThat(tailer.next(Duration.ZERO).records()).isEmpty();
      w.commitSegments(1, 1, 30); // not announced
      assertThat(tailer.next(Duration.ofSeconds(30)).records()).extracting(ReadRecord::lsn).containsExactly(4L);
    }
  }

  /** Runs {@code tailer.next()} on its own thread; returns once that thread waits for a new head. */
  private static CompletableFuture<ReadResult> blockedNext(Tailer tailer) throws InterruptedException {
    CompletableFuture<ReadResult> result = new CompletableFuture<>();
    Thread th = new Thread(() -> {
      try {
        result.complete(tailer.next());
      } catch (Throwable e) {
        result.completeExceptionally(e);
      }
    });
    th.setDaemon(true);
    th.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!result.isDone()) {
      for (StackTraceElement e : th.getStackTrace()) {
        if (e.getMethodName().equals("awaitChange")) {
          return result;
        }
      }
      assertThat(System.nanoTime()).as("tailer waiting within the bound").isLessThan(deadline);
      Thread.sleep(2);
    }
    return result;
  }
}
