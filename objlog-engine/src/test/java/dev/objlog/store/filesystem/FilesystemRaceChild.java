package dev.objlog.store.filesystem;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.objlog.store.CasResult;
import dev.objlog.store.VersionToken;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * One racing process of {@link FilesystemCrossProcessRaceTests}: opens the store, reads the CAS
 * keys' starting tokens, prints {@code READY}, waits for the go file, then races every round with
 * all its threads, printing one line per attempt: {@code create|cas <round> <writer> won|lost}.
 * Rounds start together in every process: the last thread of a process to reach a round marks the
 * process arrived in {@code <go's folder>/rounds/<round>/} and waits for all {@code processes}
 * there, so load that slows one process cannot spread the two over different rounds. A failed
 * attempt prints {@code ERROR} and breaks the round barrier, so the process ends and says why
 * instead of leaving its other threads waiting.
 *
 * <p>Args: {@code <root> <process> <threads> <rounds> <goFile> <processes>}.
 */
public final class FilesystemRaceChild {
  private FilesystemRaceChild() {}

  public static void main(String[] args) throws Exception {
    Path root = Path.of(args[0]);
    String process = args[1];
    int threads = Integer.parseInt(args[2]);
    int rounds = Integer.parseInt(args[3]);
    Path go = Path.of(args[4]);
    try (FilesystemObjectStore store = FilesystemObjectStore.open(root)) {
      VersionToken[] start = new VersionToken[rounds];
      for (int r = 0; r < rounds; r++) {
        start[r] = store.head("cas/" + r).orElseThrow().token();
      }
      System.out.println("READY");
      System.out.flush();
      while (!Files.exists(go)) {
        Thread.sleep(5);
      }
      int processes = Integer.parseInt(args[5]);
      Path meetings = go.resolveSibling("rounds");
      int[] round = {0};
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CyclicBarrier barrier = new CyclicBarrier(threads, () -> meetOtherProcesses(meetings, round[0]++, process, processes));
      List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());
      List<Future<?>> done = new ArrayList<>();
      java.util.concurrent.atomic.AtomicBoolean failed = new java.util.concurrent.atomic.AtomicBoolean();
      for (int t = 0; t < threads; t++) {
        String writer = process + "-" + t;
        done.add(
            pool.submit(
                () -> {
                  try {
                    for (int r = 0; r < rounds && !failed.get(); r++) {
                      barrier.await(60, TimeUnit.SECONDS);
                      boolean created = store.putIfAbsent("create/" + r, writer.getBytes(UTF_8)).created();
                      lines.add("create " + r + " " + writer + (created ? " won" : " lost"));
                      CasResult cas = store.compareAndSwap("cas/" + r, start[r], writer.getBytes(UTF_8));
                      lines.add("cas " + r + " " + writer + (cas.swapped() ? " won" : " lost"));
                    }
                  } catch (Throwable e) {
                    lines.add("ERROR " + writer + " " + e);
                    failed.set(true);
                    barrier.reset();
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      pool.shutdown();
      lines.forEach(System.out::println);
      System.out.println("DONE");
      System.out.flush();
    }
  }

  /** Marks {@code process} arrived at {@code round} and waits (at most 60 s) for all processes. */
  private static void meetOtherProcesses(Path meetings, int round, String process, int processes) {
    try {
      Path here = Files.createDirectories(meetings.resolve(Integer.toString(round)));
      Files.createFile(here.resolve(process));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (true) {
        try (var arrived = Files.list(here)) {
          if (arrived.count() >= processes) {
            return;
          }
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("round " + round + ": the other processes never arrived");
        }
        Thread.sleep(0, 200_000);
      }
    } catch (java.io.IOException | InterruptedException e) {
      throw new IllegalStateException("round " + round + ": cannot meet the other processes", e);
    }
  }
}
