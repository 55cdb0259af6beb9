package dev.objlog.reliability;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.AppendResult;
import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.ObjlogTestAccess;
import dev.objlog.PartitionHead;
import dev.objlog.PartitionWriter;
import dev.objlog.WriterOptions;
import dev.objlog.format.catalog.CatalogCodec;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.lifecycle.Reclaimer;
import dev.objlog.lifecycle.ReclaimerOptions;
import dev.objlog.reliability.S3ProxyPausePoints.Point;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.RetryPolicy;
import dev.objlog.store.s3.S3ObjectStore;
import dev.objlog.store.s3.S3ProxyServer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * S3Proxy itself is killed (issue #13). It runs in a child JVM over its filesystem backend, with
 * pause points ({@link S3ProxyPausePoints}) that stop it halfway through a segment's or a head
 * swap's body, or just after either was stored and before the reply; the parent kills it there
 * with SIGKILL, inspects the folder while the server is down, and restarts it on the same port
 * over the same folder. One writer in this JVM lives through all kills: its store retries carry
 * the interrupted request over the restart.
 *
 * <p>Checked after every kill: the stored head is whole (a head swap interrupted mid-body left the
 * previous head, one interrupted after the write the new one), an interrupted segment is not
 * visible under its final key; after the restart the pending flush completes, the same writer
 * continues, every acknowledged record is in the log exactly once at its LSN, LSNs are dense and
 * the catalog tree verifies. At the end a reclaim and scrub leave exactly the reachable segments.
 * Kills: {@code OBJLOG_S3PROXY_KILLS} (8 under CI=true, 4 otherwise), cycling over the points.
 */
class S3ProxyCrashTests {
  private static final String STREAM = "crash/s3proxy";

  @TempDir Path dir;

  @Test
  @Timeout(600)
  void killingS3ProxyMidUploadAndMidHeadSwapLosesNoAcknowledgedRecord() throws Exception {
    int kills = Budgets.s3ProxyKills();
    Path data = Files.createDirectories(dir.resolve("s3proxy-data"));
    Proxy proxy = Proxy.start(data, 0);
    int port = proxy.endpoint.getPort();
    Map<String, Long> acked = new ConcurrentHashMap<>();
    int[] perPoint = new int[Point.values().length];
    int tempFiles = 0;
    try (ObjectStore store = open(proxy.endpoint); Objlog log = Objlog.open(store, STREAM);
        PartitionWriter writer = log.openWriter(0, WriterOptions.builder()
            .batch(Duration.ofMillis(2), 1 << 20, 8)
            .timeouts(new WriterOptions.Timeouts(Duration.ofMinutes(5), Duration.ofMinutes(3)))
            .build())) {
      long epoch = writer.state().committed().writerEpoch();
      PartitionKeys keys = ObjlogTestAccess.runtime(log).keys(0);
      Path headFile = data.resolve("crash").resolve(keys.head());
      long seq = 0;
      for (int k = 0; k < kills; k++) {
        Point point = Point.values()[k % Point.values().length];
        seq = append(writer, epoch, seq, 10, acked);
        writer.flush();
        long generationBefore = headOnDisk(headFile).generation();
        List<Path> segmentsBefore = segmentFiles(data, keys);

        proxy.arm(point);
        seq = append(writer, epoch, seq, 5, acked);
        CompletableFuture<PartitionHead> pending = writer.flushAsync();
        String paused = proxy.awaitPaused(point);
        proxy.child.kill();
        System.out.printf("s3proxy kill %d at %s: %s%n", k, point, paused);

        // The server is down: what its folder holds now is what a restart will serve.
        Head onDisk = headOnDisk(headFile);
        String key = paused.split(" ")[2];
        switch (point) {
          case HEAD_MID_BODY -> assertThat(onDisk.generation())
              .as("a head swap killed halfway through its body leaves the previous head whole")
              .isEqualTo(generationBefore);
          case HEAD_AFTER_WRITE -> assertThat(onDisk.generation())
              .as("a head swap killed after its write leaves the new head whole")
              .isEqualTo(generationBefore + 1);
          case SEGMENT_MID_BODY -> assertThat(Files.exists(data.resolve("crash").resolve(key)))
              .as("a segment killed halfway through its body is not stored under its key %s", key).isFalse();
          case SEGMENT_AFTER_WRITE -> assertThat(Files.size(data.resolve("crash").resolve(key)))
              .as("a segment killed after its write is stored whole").isPositive();
        }
        if (point != Point.HEAD_AFTER_WRITE) {
          assertThat(onDisk.generation()).as("nothing committed while the server was paused").isEqualTo(generationBefore);
        }

        proxy = Proxy.start(data, port);
        System.out.printf("s3proxy restarted on %s%n", proxy.endpoint);
        PartitionHead after = pending.get(180, TimeUnit.SECONDS);
        assertThat(writer.failure()).as("the writer survives the server's restart after %s", point).isEmpty();
        assertThat(Long.compareUnsigned(after.nextLsn(), seq)).as("the flush after %s covers every append", point)
            .isGreaterThanOrEqualTo(0);
        perPoint[point.ordinal()]++;
        try (Objlog check = Objlog.open(store, STREAM)) {
          LogChecker.check(LogChecker.scan(check, 0), acked);
          LogChecker.verifyTree(check, store, 0);
        }
        assertThat(segmentFiles(data, keys)).as("segments after %s", point).hasSizeGreaterThan(segmentsBefore.size());
      }
      tempFiles = tempFiles(data).size();
      seq = append(writer, epoch, seq, 10, acked);
      writer.flush();
      LogChecker.Scan scan = LogChecker.scan(log, 0);
      LogChecker.check(scan, acked);
      assertThat(scan.records()).as("every append of the one writer is in the log").hasSize((int) seq);
      LogChecker.verifyTree(log, store, 0);
      try (Reclaimer reclaimer = Reclaimer.create(log, ReclaimerOptions.builder().deleteDelay(Duration.ofMillis(1)).build())) {
        Thread.sleep(20); // past the 1 ms delete delay of the scrub's orphans
        for (int pass = 0; pass < 20; pass++) {
          if (!(reclaimer.reclaim(0).hasMore() | reclaimer.scrub(0).hasMore())) {
            break;
          }
        }
      }
      PartitionHead head = log.head(0).orElseThrow();
      var left = Keys.snapshot(store, keys.segmentsDir()).keySet().stream()
          .map(k -> k.substring(keys.segmentsDir().length())).sorted().toList();
      assertThat(left).as("segments left after scrub (head %s; ack'd %s)", head, new java.util.TreeMap<>(acked))
          .hasSize((int) head.reachableSegmentCount());
      LogChecker.check(LogChecker.scan(log, 0), acked);
      System.out.printf("crash s3proxy server: %d kills %s, %d records acknowledged, %d backend temp files left by kills%n",
          kills, java.util.Arrays.toString(perPoint), acked.size(), tempFiles);
    } finally {
      proxy.child.close();
    }
  }

  private static long append(PartitionWriter writer, long epoch, long seq, int n, Map<String, Long> acked) {
    for (int i = 0; i < n; i++, seq++) {
      String v = LogChecker.value("w", epoch, seq);
      AppendResult r = writer.append(LogRecord.of(seq, v));
      r.committed().thenAccept(h -> acked.put(v, r.lsn()));
    }
    return seq;
  }

  private static Head headOnDisk(Path headFile) throws Exception {
    return CatalogCodec.decodeHead(Files.readAllBytes(headFile));
  }

  private static List<Path> segmentFiles(Path data, PartitionKeys keys) throws Exception {
    Path folder = data.resolve("crash").resolve(keys.segmentsDir());
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(folder)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".plseg")).toList();
    }
  }

  /** The backend writes each object to {@code <name>-<uuid>} beside it and renames it into place. */
  private static List<Path> tempFiles(Path data) throws Exception {
    try (Stream<Path> files = Files.walk(data.resolve("crash"))) {
      return files.filter(f -> TEMP.matcher(f.getFileName().toString()).matches()).toList();
    }
  }

  private static final java.util.regex.Pattern TEMP =
      java.util.regex.Pattern.compile(".*-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

  /** Retries long enough to carry a request over a server restart. */
  private static ObjectStore open(URI endpoint) {
    return S3ObjectStore.builder().bucket("crash").endpoint(endpoint).pathStyle(true).region("us-east-1")
        .credentials(S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY)
        .retryPolicy(new RetryPolicy(120, Duration.ofMillis(20), Duration.ofSeconds(1), 0.5, Duration.ofSeconds(60)))
        .build();
  }

  /** One S3Proxy child process. */
  private record Proxy(ChildJvm child, URI endpoint) {
    static Proxy start(Path data, int port) throws Exception {
      ChildJvm child = new ChildJvm(CrashChildren.S3ProxyOnDisk.class, data.toString(), String.valueOf(port));
      long deadline = System.currentTimeMillis() + 60_000;
      while (System.currentTimeMillis() < deadline) {
        for (String l : child.lines) {
          if (l.startsWith("ENDPOINT ")) {
            return new Proxy(child, URI.create(l.substring(9).trim()));
          }
        }
        if (!child.process.isAlive()) {
          break;
        }
        Thread.sleep(10);
      }
      child.close();
      throw new AssertionError("S3Proxy child did not start on port " + port + ": " + child.tail());
    }

    void arm(Point point) throws Exception {
      child.process.getOutputStream().write(("ARM " + point + "\n").getBytes(UTF_8));
      child.process.getOutputStream().flush();
      assertThat(child.awaitLine("ARMED " + point, 30_000)).as("S3Proxy armed %s: %s", point, child.tail()).isTrue();
    }

    String awaitPaused(Point point) throws Exception {
      long deadline = System.currentTimeMillis() + 60_000;
      while (System.currentTimeMillis() < deadline) {
        for (String l : child.lines) {
          if (l.startsWith("PAUSED " + point + " ") && l.endsWith(" .")) {
            return l;
          }
        }
        Thread.sleep(5);
      }
      throw new AssertionError("S3Proxy never reached " + point + ": " + child.tail());
    }
  }
}
