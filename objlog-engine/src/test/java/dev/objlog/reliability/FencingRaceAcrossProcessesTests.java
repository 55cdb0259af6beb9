package dev.objlog.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.PartitionWriter;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fencing race on the filesystem store across two processes (issue #9): two child JVMs run
 * {@link FencingContender} on the same root; their acknowledgements and outcomes come back as
 * output lines and the same invariants as {@link FencingRaceContract} are checked. A {@link
 * PublishGate} in the children (marker files) makes the race real on every run whatever the load:
 * at incarnations 1 and 3 one child's first publish is held until the other child has taken over,
 * so each run has two losers superseded with a publish in flight, whose records must be absent.
 */
class FencingRaceAcrossProcessesTests {
  static final int INCARNATIONS = 8;
  static final int APPENDS = 30;

  @TempDir Path dir;

  /** {@code OBJLOG_RACE_RUNS} runs (default 1), each in its own folder. */
  @TestFactory
  Stream<DynamicTest> twoProcessesRacingForOnePartitionNeverInterleave() {
    return IntStream.rangeClosed(1, Budgets.raceRuns()).mapToObj(run -> DynamicTest.dynamicTest("run " + run,
        () -> Assertions.assertTimeoutPreemptively(Duration.ofSeconds(240), () -> race(dir.resolve("run-" + run)))));
  }

  private static void race(Path dir) throws Exception {
    long started = System.nanoTime();
    Files.createDirectories(dir);
    Path root = dir.resolve("store");
    Path go = dir.resolve("go");
    PublishGate gate = new PublishGate(dir.resolve("gate"), FencingRaceContract.GATES);
    String stream = "race/processes";
    try (FilesystemObjectStore store = FilesystemObjectStore.open(root)) {
      store.list("", 1);
    }
    List<ChildJvm> children = List.of(
        new ChildJvm(FencingContender.class, root.toString(), stream, "a", "" + INCARNATIONS, "" + APPENDS, "1", go.toString(),
            dir.resolve("gate").toString(), gate.spec()),
        new ChildJvm(FencingContender.class, root.toString(), stream, "b", "" + INCARNATIONS, "" + APPENDS, "2", go.toString(),
            dir.resolve("gate").toString(), gate.spec()));
    Map<String, Long> acked = new HashMap<>();
    Map<String, Integer> outcomes = new TreeMap<>();
    Map<String, String> endings = new TreeMap<>();
    int held = 0;
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
            endings.put(p[1], p[2]);
          } else if (p[0].equals("OVERLAP") && p[2].equals("held")) {
            held++;
          }
        }
        assertThat(c.lines).as("unexpected failures").noneMatch(l -> l.startsWith("UNEXPECTED"));
      }
    } finally {
      for (ChildJvm c : children) {
        c.close();
      }
    }
    for (String loser : gate.loserWriters()) {
      assertThat(endings.get(loser)).as("%s, superseded with its publish held, ends stale (endings %s)", loser, endings)
          .isEqualTo("stale");
    }
    assertThat(held).as("held publishes that lost to the rival's takeover").isEqualTo(gate.gates());
    try (FilesystemObjectStore store = FilesystemObjectStore.open(root); Objlog log = Objlog.open(store, stream)) {
      try (PartitionWriter last = log.openWriter(0)) {
        String v = LogChecker.value("final", last.state().committed().writerEpoch(), 0);
        acked.put(v, last.append(LogRecord.of(System.currentTimeMillis(), v)).lsn());
        last.flush();
      }
      LogChecker.Scan scan = LogChecker.scan(log, 0);
      LogChecker.check(scan, acked);
      LogChecker.verifyTree(log, store, 0);
      LogChecker.assertAbsent(scan, gate.loserWriters());
      System.out.printf("fencing race across processes: %d records, %d acknowledged, outcomes %s, real overlaps %d held, %d ms%n",
          scan.records().size(), acked.size(), outcomes, held, (System.nanoTime() - started) / 1_000_000);
    }
    assertThat(outcomes.getOrDefault("stale", 0)).as("some writer lost the race: %s", outcomes).isPositive();
  }
}
