package dev.objlog.reliability;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Makes a fencing race really happen, in threads or across processes: at the incarnations it
 * names, the loser's first head compare-and-swap (its first publish) is held until the rival has
 * taken the partition over, so the loser is superseded with a publish in flight on every run. The
 * two sides meet through marker files in one folder ({@code held-<incarnation>}, {@code
 * taken-<incarnation>}), which works alike for two threads and two JVMs.
 *
 * <p>Spec: {@code <incarnation>:<loser>} pairs separated by commas, e.g. {@code 1:a,3:b}.
 *
 * <p>Thread-safety: immutable; the marker files carry the state.
 */
final class PublishGate {
  private static final long WAIT_SECONDS = 60;

  private final Path dir;
  private final Map<Integer, String> losers;

  PublishGate(Path dir, String spec) {
    this.dir = dir;
    this.losers = new TreeMap<>();
    for (String pair : spec.split(",")) {
      String[] p = pair.split(":");
      losers.put(Integer.parseInt(p[0]), p[1]);
    }
  }

  String spec() {
    StringBuilder b = new StringBuilder();
    losers.forEach((inc, loser) -> b.append(b.length() == 0 ? "" : ",").append(inc).append(':').append(loser));
    return b.toString();
  }

  int gates() {
    return losers.size();
  }

  /** The writer id ({@code <contender>-<incarnation>}) of each held loser. */
  java.util.List<String> loserWriters() {
    return losers.entrySet().stream().map(e -> e.getValue() + "-" + e.getKey()).toList();
  }

  boolean loses(String contender, int incarnation) {
    return contender.equals(losers.get(incarnation));
  }

  boolean takesOver(String contender, int incarnation) {
    String loser = losers.get(incarnation);
    return loser != null && !loser.equals(contender);
  }

  /** Loser: its publish is held now; waits until the rival has taken over. */
  void holdUntilTaken(int incarnation) {
    mark("held-" + incarnation);
    await("taken-" + incarnation, "the rival's takeover at incarnation " + incarnation);
  }

  /** Taker: waits until the loser's publish is held. */
  void awaitHeld(int incarnation) {
    await("held-" + incarnation, "the loser's held publish at incarnation " + incarnation);
  }

  /** Taker: the takeover is done (or failed); lets the loser's publish go on. */
  void taken(int incarnation) {
    mark("taken-" + incarnation);
  }

  private void mark(String name) {
    try {
      Files.createDirectories(dir);
      Files.createFile(dir.resolve(name));
    } catch (FileAlreadyExistsException e) {
      // Marked already; the marker is all that counts.
    } catch (IOException e) {
      throw new IllegalStateException("cannot mark " + name + " in " + dir, e);
    }
  }

  private void await(String name, String what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    Path marker = dir.resolve(name);
    while (!Files.exists(marker)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("race gate: waited " + WAIT_SECONDS + " s for " + what);
      }
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + what, e);
      }
    }
  }
}
