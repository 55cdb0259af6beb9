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

/**
 * One racing process of {@link FilesystemCrossProcessRaceTests}: opens the store, reads the CAS
 * keys' starting tokens, prints {@code READY}, waits for the go file (which holds the start time),
 * then races every round at {@code start + round * ROUND_MILLIS} with all its threads, printing one
 * line per attempt: {@code create|cas <round> <writer> won|lost}.
 */
public final class FilesystemRaceChild {
  static final long ROUND_MILLIS = 40;

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
      Thread.sleep(20);
      long startAt = Long.parseLong(Files.readString(go, UTF_8).trim());
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CyclicBarrier barrier = new CyclicBarrier(threads);
      List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        String writer = process + "-" + t;
        done.add(
            pool.submit(
                () -> {
                  for (int r = 0; r < rounds; r++) {
                    long wait = startAt + r * ROUND_MILLIS - System.currentTimeMillis();
                    if (wait > 0) {
                      Thread.sleep(wait);
                    }
                    barrier.await();
                    boolean created = store.putIfAbsent("create/" + r, writer.getBytes(UTF_8)).created();
                    lines.add("create " + r + " " + writer + (created ? " won" : " lost"));
                    CasResult cas = store.compareAndSwap("cas/" + r, start[r], writer.getBytes(UTF_8));
                    lines.add("cas " + r + " " + writer + (cas.swapped() ? " won" : " lost"));
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
}
