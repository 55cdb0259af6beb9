package dev.objlog.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.ObjlogTestAccess;
import dev.objlog.PartitionHead;
import dev.objlog.PartitionWriter;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.lifecycle.Reclaimer;
import dev.objlog.lifecycle.ReclaimerOptions;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Timeout;

/**
 * SIGKILL at named crash points (issue #13). A child JVM ({@link NamedCrashChild}) commits some
 * records, then runs into one named point, where a test-side decorator prints {@code AT <point>}
 * and blocks; the parent kills it there. Each kill is followed by another incarnation (which takes
 * the partition over), {@code OBJLOG_NAMED_CRASH_KILLS} kills per point (CI 3, otherwise 1). At
 * the end: every acknowledged record is readable at its LSN (or below the retention floor), LSNs
 * are dense, epochs do not interleave, the catalog tree verifies, and reclaim plus scrub leave
 * exactly the reachable segments and the log still reads in full.
 */
class NamedCrashPointTests {
  @TempDir Path dir;

  static int killsPerPoint() {
    return Budgets.count("OBJLOG_NAMED_CRASH_KILLS", 3, 1);
  }

  @ParameterizedTest
  @EnumSource(NamedCrashChild.Point.class)
  @Timeout(300)
  void aWriterKilledAtANamedCrashPointLosesNoAcknowledgedRecord(NamedCrashChild.Point point) throws Exception {
    Path root = dir.resolve("store");
    Files.createDirectories(root);
    String stream = "crash/named";
    Map<String, Long> acked = new HashMap<>();
    int kills = killsPerPoint();
    long started = System.nanoTime();
    for (int k = 0; k < kills; k++) {
      try (ChildJvm child = new ChildJvm(NamedCrashChild.class, root.toString(), stream, point.label, "" + k)) {
        boolean reached = awaitAnyPrefix(child, "AT " + point.label, "MISSED", 120_000);
        assertThat(reached && child.lines.contains("AT " + point.label))
            .as("child %d stopped at %s; output %s", k, point.label, child.tail()).isTrue();
        int before = 0;
        for (String line : child.lines) {
          if (line.startsWith("AT ")) {
            break;
          }
          before += line.startsWith("ACK ") ? 1 : 0;
        }
        assertThat(before).as("acknowledgements before %s in child %d", point.label, k).isPositive();
        child.kill();
        for (String line : child.lines) {
          String[] p = line.split(" ");
          if (p.length == 4 && p[0].equals("ACK") && p[3].equals(".")) {
            acked.put(p[1], Long.parseLong(p[2]));
          }
        }
      }
    }
    try (ObjectStore store = FilesystemObjectStore.open(root); Objlog log = Objlog.open(store, stream)) {
      try (PartitionWriter last = log.openWriter(0)) {
        String v = LogChecker.value("final", last.state().committed().writerEpoch(), 0);
        acked.put(v, last.append(LogRecord.of(System.currentTimeMillis() + 1000, v)).lsn());
        last.flush();
      }
      LogChecker.Scan scan = LogChecker.scan(log, 0);
      LogChecker.check(scan, acked);
      LogChecker.verifyTree(log, store, 0);
      PartitionKeys keys = ObjlogTestAccess.runtime(log).keys(0);
      // The reclaimer restarts under the killed one's owner id, so it resumes that lease instead
      // of waiting for it to expire. Segments trimmed by retention become deletable one delete
      // delay (1 ms) after a pass first sees them, so a few passes are needed.
      PartitionHead head = log.head(0).orElseThrow();
      int segments = -1;
      try (Reclaimer reclaimer = Reclaimer.create(log, ReclaimerOptions.builder().ownerId(NamedCrashChild.RECLAIMER)
          .deleteDelay(Duration.ofMillis(1)).build())) {
        for (int pass = 0; pass < 50 && segments != head.reachableSegmentCount(); pass++) {
          Thread.sleep(2);
          reclaimer.reclaim(0);
          reclaimer.scrub(0);
          head = log.head(0).orElseThrow();
          segments = Keys.snapshot(store, keys.segmentsDir()).size();
        }
      }
      assertThat(segments).as("segment objects after reclaim and scrub (reachable %d)", head.reachableSegmentCount())
          .isEqualTo(head.reachableSegmentCount());
      LogChecker.check(LogChecker.scan(log, 0), acked);
      System.out.printf("named crash %s: %d kills, %d acknowledged (oldest LSN %d, next %d), %d ms%n", point.label, kills,
          acked.size(), scan.oldestLsn(), scan.nextLsn(), (System.nanoTime() - started) / 1_000_000);
    }
  }

  private static boolean awaitAnyPrefix(ChildJvm child, String a, String b, long millis) throws InterruptedException {
    long deadline = System.currentTimeMillis() + millis;
    while (System.currentTimeMillis() < deadline) {
      if (child.lines.stream().anyMatch(l -> l.startsWith(a) || l.startsWith(b))) {
        return true;
      }
      if (!child.process.isAlive()) {
        Thread.sleep(100);
        return child.lines.stream().anyMatch(l -> l.startsWith(a) || l.startsWith(b));
      }
      Thread.sleep(5);
    }
    return false;
  }
}
