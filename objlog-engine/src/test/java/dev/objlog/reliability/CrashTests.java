package dev.objlog.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.ObjlogTestAccess;
import dev.objlog.PartitionHead;
import dev.objlog.PartitionWriter;
import dev.objlog.WriterOptions;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.lifecycle.Reclaimer;
import dev.objlog.lifecycle.ReclaimerOptions;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.store.ObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash tests with real processes (issue #9). A child JVM writes and is killed with SIGKILL at a
 * random moment; the next child takes the partition over. Afterwards every record whose
 * durability future completed (reported by an {@code ACK} line before the kill) is in the log
 * exactly once at its LSN, and a scrub removes the orphans the kills left. Targets: the filesystem
 * store, and S3Proxy running in its own process. A listener child tailing with a cursor and
 * persisting its checkpoint file is killed the same way and must resume with no gap.
 *
 * <p>Kills in total come from {@code OBJLOG_CRASH_KILLS} (50 under CI=true, 6 otherwise): half on
 * the filesystem writer, a quarter on the S3Proxy writer, the rest on the listener.
 */
class CrashTests {
  @TempDir Path dir;

  static int fsKills() {
    return (Budgets.crashKills() + 1) / 2;
  }

  static int s3Kills() {
    return Budgets.crashKills() / 4;
  }

  static int listenerKills() {
    return Budgets.crashKills() - fsKills() - s3Kills();
  }

  @Test
  @Timeout(300)
  void killedFilesystemWritersLoseNoAcknowledgedRecord() throws Exception {
    Path root = dir.resolve("store");
    Files.createDirectories(root);
    crashWriters("fs:" + root, fsKills(), 11);
  }

  @Test
  @Timeout(300)
  void killedWritersOnS3ProxyInAnotherProcessLoseNoAcknowledgedRecord() throws Exception {
    if (s3Kills() == 0) {
      return;
    }
    try (ChildJvm proxy = new ChildJvm(CrashChildren.S3Proxy.class)) {
      long deadline = System.currentTimeMillis() + 60_000;
      String endpoint = null;
      while (endpoint == null && System.currentTimeMillis() < deadline) {
        for (String l : proxy.lines) {
          if (l.startsWith("ENDPOINT ")) {
            endpoint = l.substring(9).trim();
          }
        }
        Thread.sleep(20);
      }
      assertThat(endpoint).as("S3Proxy child endpoint; output %s", proxy.tail()).isNotNull();
      crashWriters("s3:" + endpoint, s3Kills(), 23);
    }
  }

  private void crashWriters(String target, int kills, long seed) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    String stream = "crash/writers";
    Map<String, Long> acked = new HashMap<>();
    int killed = 0;
    for (int k = 0; k < kills; k++) {
      try (ChildJvm child = new ChildJvm(CrashChildren.Writer.class, target, stream, "p" + k, "" + (seed * 1000 + k))) {
        assertThat(awaitPrefix(child, "READY ", 60_000)).as("writer %d ready: %s", k, child.tail()).isTrue();
        Thread.sleep(50 + random.nextInt(600));
        child.kill();
        killed++;
        for (String line : child.lines) {
          String[] p = line.split(" ");
          if (p.length == 4 && p[0].equals("ACK") && p[3].equals(".")) {
            acked.put(p[1], Long.parseLong(p[2]));
          }
        }
        assertThat(child.lines).as("child %d failed: %s", k, child.tail()).noneMatch(l -> l.startsWith("Exception in"));
      }
    }
    try (ObjectStore store = CrashChildren.open(target); Objlog log = Objlog.open(store, stream)) {
      try (PartitionWriter last = log.openWriter(0)) {
        String v = LogChecker.value("final", last.state().committed().writerEpoch(), 0);
        acked.put(v, last.append(LogRecord.of(System.currentTimeMillis() + 1000, v)).lsn());
        last.flush();
      }
      LogChecker.Scan scan = LogChecker.scan(log, 0);
      LogChecker.check(scan, acked);
      LogChecker.verifyTree(log, store, 0);
      PartitionKeys keys = ObjlogTestAccess.runtime(log).keys(0);
      int segmentsBefore = Keys.snapshot(store, keys.segmentsDir()).size();
      int stagingBefore = Keys.snapshot(store, keys.stagingDir()).size();
      Thread.sleep(20);
      try (Reclaimer reclaimer = Reclaimer.create(log, ReclaimerOptions.builder().deleteDelay(Duration.ofMillis(1)).build())) {
        for (int pass = 0; pass < 20; pass++) {
          boolean more = reclaimer.reclaim(0).hasMore() | reclaimer.scrub(0).hasMore();
          if (!more) {
            break;
          }
        }
      }
      PartitionHead head = log.head(0).orElseThrow();
      int segmentsAfter = Keys.snapshot(store, keys.segmentsDir()).size();
      int stagingAfter = Keys.snapshot(store, keys.stagingDir()).size();
      System.out.printf("crash %s: %d kills, %d records, %d acknowledged, segments %d -> %d (reachable %d), staging %d -> %d%n",
          target.substring(0, 2), killed, scan.records().size(), acked.size(), segmentsBefore, segmentsAfter,
          head.reachableSegmentCount(), stagingBefore, stagingAfter);
      assertThat(segmentsAfter).as("orphan segments left after scrub").isEqualTo(head.reachableSegmentCount());
      assertThat(stagingAfter).as("staging objects left after reclaim").isZero();
      // Still readable after the scrub: it deleted nothing referenced.
      LogChecker.check(LogChecker.scan(log, 0), acked);
    }
  }

  @Test
  @Timeout(300)
  void aKilledListenerResumesFromItsCheckpointWithNoGap() throws Exception {
    int kills = listenerKills();
    Path root = dir.resolve("store");
    Files.createDirectories(root);
    String target = "fs:" + root;
    String stream = "crash/listener";
    int records = 600 + 150 * kills;
    try (ObjectStore store = CrashChildren.open(target); Objlog log = Objlog.open(store, stream);
        PartitionWriter w = log.openWriter(0, WriterOptions.builder().batch(Duration.ZERO, 1 << 20, 25).build())) {
      for (int i = 0; i < records; i++) {
        w.append(LogRecord.of(i, "r" + i));
      }
      w.flush();
    }
    Path checkpoint = dir.resolve("listener.checkpoint.json");
    SplittableRandom random = new SplittableRandom(31);
    BitSet processed = new BitSet();
    java.util.List<String> history = new java.util.ArrayList<>();
    int killed = 0;
    for (int k = 0; k <= kills; k++) {
      long saved = Files.exists(checkpoint) ? CursorCheckpoint.parse(Files.readAllBytes(checkpoint)).nextLsn() : 0;
      try (ChildJvm child = new ChildJvm(CrashChildren.Listener.class, target, stream, checkpoint.toString(), "" + k)) {
        assertThat(awaitPrefix(child, "READY ", 60_000)).as("listener ready: %s", child.tail()).isTrue();
        long resumedAt = child.lines.stream().filter(l -> l.startsWith("READY ")).mapToLong(l -> Long.parseLong(l.substring(6)))
            .findFirst().orElseThrow();
        assertThat(resumedAt).as("listener %d resumes exactly at its checkpoint", k).isEqualTo(saved);
        if (k < kills) {
          Thread.sleep(30 + random.nextInt(300));
          child.kill();
          killed++;
        } else {
          assertThat(awaitPrefix(child, "IDLE " + records, 120_000)).as("final listener caught up: %s", child.tail()).isTrue();
          child.kill();
        }
        history.add("#" + k + " resumed " + resumedAt + " lines " + child.lines.stream()
            .filter(l -> !l.startsWith("GOT")).toList() + " got " + child.lines.stream().filter(l -> l.startsWith("GOT"))
            .map(l -> l.split(" ")[1]).reduce((a, b) -> a.contains("..") ? a.substring(0, a.indexOf("..") + 2) + b : a + ".." + b).orElse("-"));
        long expectedNext = resumedAt;
        for (String line : child.lines) {
          String[] p = line.split(" ");
          if (p.length == 3 && p[0].equals("GOT") && p[2].equals(".")) {
            long lsn = Long.parseLong(p[1]);
            assertThat(lsn).as("listener %d processes in order with no gap", k).isEqualTo(expectedNext);
            expectedNext++;
            processed.set((int) lsn);
          }
        }
      }
    }
    assertThat(processed.nextClearBit(0)).as("every record processed at least once; history %s", history).isEqualTo(records);
    System.out.printf("crash listener: %d kills, %d records, all processed, resumed at checkpoints%n", killed, records);
  }

  private static boolean awaitPrefix(ChildJvm child, String prefix, long millis) throws InterruptedException {
    long deadline = System.currentTimeMillis() + millis;
    while (System.currentTimeMillis() < deadline) {
      if (child.lines.stream().anyMatch(l -> l.startsWith(prefix))) {
        return true;
      }
      if (!child.process.isAlive()) {
        Thread.sleep(100);
        return child.lines.stream().anyMatch(l -> l.startsWith(prefix));
      }
      Thread.sleep(5);
    }
    return false;
  }
}
