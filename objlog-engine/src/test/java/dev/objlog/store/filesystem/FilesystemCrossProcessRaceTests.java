package dev.objlog.store.filesystem;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two JVMs with four threads each race create-only writes and compare-and-swaps on the same keys:
 * the locks must exclude other processes, not just other threads, so every round has exactly one
 * winner across both processes and the stored bytes are the winner's. Every attempt must succeed
 * or lose cleanly: an error (such as a lock refused by the kernel's deadlock check, see {@link
 * FilesystemFalseDeadlockTests}) fails the test. The processes meet at the start of every round
 * (see {@link FilesystemRaceChild}), so they race whatever the load.
 */
class FilesystemCrossProcessRaceTests {

  private static final int PROCESSES = 2;
  private static final int THREADS = 4;
  private static final int ROUNDS = 24;

  @TempDir Path dir;

  /** {@code OBJLOG_RACE_RUNS} runs (default 1), each in its own folder. */
  @TestFactory
  Stream<DynamicTest> twoProcessesRacingHaveExactlyOneWinnerPerRound() {
    String runs = System.getenv("OBJLOG_RACE_RUNS");
    int n = runs == null || runs.isBlank() ? 1 : Integer.parseInt(runs.trim());
    return IntStream.rangeClosed(1, n).mapToObj(run -> DynamicTest.dynamicTest("run " + run,
        () -> Assertions.assertTimeoutPreemptively(Duration.ofSeconds(240), () -> race(dir.resolve("run-" + run)))));
  }

  private static void race(Path dir) throws Exception {
    Files.createDirectories(dir);
    Path root = dir.resolve("store");
    Path go = dir.resolve("go");
    try (FilesystemObjectStore store = FilesystemObjectStore.open(root)) {
      for (int r = 0; r < ROUNDS; r++) {
        assertThat(store.putIfAbsent("cas/" + r, "start".getBytes(UTF_8)).created()).isTrue();
      }
    }

    String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<Process> children = new ArrayList<>();
    List<List<String>> outputs = new ArrayList<>();
    CountDownLatch ready = new CountDownLatch(PROCESSES);
    List<Thread> readers = new ArrayList<>();
    try {
      for (int p = 0; p < PROCESSES; p++) {
        Process child =
            new ProcessBuilder(
                    javaBin, "-cp", System.getProperty("java.class.path"), FilesystemRaceChild.class.getName(),
                    root.toString(), "p" + p, String.valueOf(THREADS), String.valueOf(ROUNDS), go.toString(),
                    String.valueOf(PROCESSES))
                .redirectErrorStream(true)
                .start();
        children.add(child);
        List<String> lines = new CopyOnWriteArrayList<>();
        outputs.add(lines);
        Thread reader =
            new Thread(
                () -> {
                  try (BufferedReader in =
                      new BufferedReader(new InputStreamReader(child.getInputStream(), UTF_8))) {
                    for (String line; (line = in.readLine()) != null; ) {
                      lines.add(line);
                      if (line.equals("READY")) {
                        ready.countDown();
                      }
                    }
                  } catch (java.io.IOException ignored) {
                    // The process ended; its exit code and output are checked below.
                  }
                });
        reader.start();
        readers.add(reader);
      }
      assertThat(ready.await(60, TimeUnit.SECONDS)).as("children ready; output %s", outputs).isTrue();
      Files.writeString(go, "go");
      for (Process child : children) {
        assertThat(child.waitFor(120, TimeUnit.SECONDS)).as("child finished; outputs %s", outputs).isTrue();
      }
      for (Thread reader : readers) {
        reader.join(60_000);
      }
      for (int p = 0; p < PROCESSES; p++) {
        assertThat(children.get(p).exitValue()).as("exit code; output %s", outputs.get(p)).isZero();
        assertThat(outputs.get(p)).as("child output").contains("DONE");
        assertThat(outputs.get(p)).as("failed attempts in p%d", p).noneMatch(l -> l.startsWith("ERROR"));
      }
    } finally {
      children.forEach(Process::destroyForcibly);
    }

    Map<String, List<String>> winners = new HashMap<>();
    int attempts = 0;
    for (List<String> lines : outputs) {
      for (String line : lines) {
        String[] parts = line.split(" ");
        if (parts.length == 4 && (parts[0].equals("create") || parts[0].equals("cas"))) {
          attempts++;
          if (parts[3].equals("won")) {
            winners.computeIfAbsent(parts[0] + "/" + parts[1], k -> new ArrayList<>()).add(parts[2]);
          }
        }
      }
    }
    assertThat(attempts).isEqualTo(2 * ROUNDS * PROCESSES * THREADS);
    try (FilesystemObjectStore store = FilesystemObjectStore.open(root)) {
      for (int r = 0; r < ROUNDS; r++) {
        for (String kind : List.of("create", "cas")) {
          String key = kind + "/" + r;
          assertThat(winners.get(key)).as("winners of %s", key).hasSize(1);
          assertThat(new String(store.get(key).bytes(), UTF_8)).isEqualTo(winners.get(key).get(0));
        }
      }
    }
  }
}
