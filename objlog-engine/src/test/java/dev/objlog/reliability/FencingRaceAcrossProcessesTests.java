package dev.objlog.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.PartitionWriter;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fencing race on the filesystem store across two processes (issue #9): two child JVMs run
 * {@link FencingContender} on the same root; their acknowledgements and outcomes come back as
 * output lines and the same invariants as {@link FencingRaceContract} are checked.
 */
class FencingRaceAcrossProcessesTests {
  static final int INCARNATIONS = 8;
  static final int APPENDS = 30;

  @TempDir Path dir;

  @Test
  @Timeout(240)
  void twoProcessesRacingForOnePartitionNeverInterleave() throws Exception {
    Path root = dir.resolve("store");
    Path go = dir.resolve("go");
    String stream = "race/processes";
    try (FilesystemObjectStore store = FilesystemObjectStore.open(root)) {
      store.list("", 1);
    }
    List<ChildJvm> children = List.of(
        new ChildJvm(FencingContender.class, root.toString(), stream, "a", "" + INCARNATIONS, "" + APPENDS, "1", go.toString()),
        new ChildJvm(FencingContender.class, root.toString(), stream, "b", "" + INCARNATIONS, "" + APPENDS, "2", go.toString()));
    Map<String, Long> acked = new HashMap<>();
    Map<String, Integer> outcomes = new TreeMap<>();
    try {
      for (ChildJvm c : children) {
        assertThat(c.awaitLine("READY", 60_000)).as("child ready: %s", c.tail()).isTrue();
      }
      Files.writeString(go, "go");
      for (ChildJvm c : children) {
        assertThat(c.await(180)).as("exit code; output %s", c.tail()).isZero();
        assertThat(c.lines).as("child finished").contains("DONE");
        for (String line : c.lines) {
          String[] p = line.split(" ");
          if (p[0].equals("ACK")) {
            acked.put(p[1], Long.parseLong(p[2]));
          } else if (p[0].equals("END")) {
            outcomes.merge(p[2], 1, Integer::sum);
          }
        }
        assertThat(c.lines).as("unexpected failures").noneMatch(l -> l.startsWith("UNEXPECTED"));
      }
    } finally {
      for (ChildJvm c : children) {
        c.close();
      }
    }
    try (FilesystemObjectStore store = FilesystemObjectStore.open(root); Objlog log = Objlog.open(store, stream)) {
      try (PartitionWriter last = log.openWriter(0)) {
        String v = LogChecker.value("final", last.state().committed().writerEpoch(), 0);
        acked.put(v, last.append(LogRecord.of(System.currentTimeMillis(), v)).lsn());
        last.flush();
      }
      LogChecker.Scan scan = LogChecker.scan(log, 0);
      LogChecker.check(scan, acked);
      LogChecker.verifyTree(log, store, 0);
      System.out.printf("fencing race across processes: %d records, %d acknowledged, outcomes %s%n",
          scan.records().size(), acked.size(), outcomes);
    }
    assertThat(outcomes.getOrDefault("stale", 0)).as("some writer lost the race: %s", outcomes).isPositive();
  }
}
