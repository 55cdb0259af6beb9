package dev.objlog.reliability;

import dev.objlog.AppendResult;
import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.ObjlogException;
import dev.objlog.PartitionWriter;
import dev.objlog.StaleWriterException;
import dev.objlog.WriterOptions;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One side of a fencing race: {@code incarnations} times, take the partition over (openWriter bumps
 * the epoch), append and flush until superseded or done, and report every acknowledged record and
 * how each incarnation ended. Runs in a thread (one {@link Objlog} per contender, like separate
 * processes) or as a child JVM ({@link #main}) printing {@code ACK <value> <lsn>} and {@code END
 * <writer> <outcome>} lines. With a {@link PublishGate}, the gated incarnations make a real
 * overlap on purpose: the loser's first publish is held until the taker (which waits for that) has
 * taken over, so the loser is superseded with a publish in flight ({@code OVERLAP} lines, counted
 * by its {@link RaceStore}).
 */
final class FencingContender {
  final Map<String, Long> acknowledged = new ConcurrentHashMap<>();
  final Map<String, Integer> outcomes = new ConcurrentHashMap<>();
  final List<String> unexpected = java.util.Collections.synchronizedList(new ArrayList<>());
  /** How each writer incarnation ({@code <name>-<incarnation>}) ended. */
  final Map<String, String> endings = new ConcurrentHashMap<>();

  private final String name;
  private final Consumer<String> out;
  /** When set, every incarnation of every contender opens its writer together (in-process races). */
  java.util.concurrent.@org.jspecify.annotations.Nullable CyclicBarrier together;
  /** When set, its incarnations hold one side's publish until the other has taken over. */
  @org.jspecify.annotations.Nullable PublishGate gate;
  /** Shared by the contenders of one JVM to count overlaps that were not held on purpose too. */
  @org.jspecify.annotations.Nullable OverlapTracker tracker;
  /** This contender's store view, set by {@link #run}: its overlap counts. */
  @org.jspecify.annotations.Nullable RaceStore raceStore;

  FencingContender(String name, Consumer<String> out) {
    this.name = name;
    this.out = out;
  }

  void run(ObjectStore client, String stream, int incarnations, int appendsPerIncarnation, long seed)
      throws InterruptedException {
    SplittableRandom random = new SplittableRandom(seed);
    RaceStore store = new RaceStore(client, name, gate, tracker, out);
    raceStore = store;
    try (Objlog log = Objlog.open(store, stream)) {
      for (int inc = 0; inc < incarnations; inc++) {
        String writer = name + "-" + inc;
        PartitionWriter w;
        if (together != null) {
          try {
            together.await(60, TimeUnit.SECONDS);
          } catch (java.util.concurrent.BrokenBarrierException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException(e);
          }
        }
        PublishGate g = gate;
        boolean taker = g != null && g.takesOver(name, inc);
        if (g != null && taker) {
          g.awaitHeld(inc);
        }
        store.opening(writer, true);
        try {
          w = log.openWriter(0, WriterOptions.builder().batch(Duration.ofMillis(2), 1 << 20, 1 + random.nextInt(4)).build());
        } catch (ObjlogException e) {
          // Contending openWriter calls may exhaust their CAS attempts; that is a clean, typed loss.
          outcome(writer, "open:" + e.getClass().getSimpleName());
          continue;
        } finally {
          store.opening(writer, false);
          if (g != null && taker) {
            g.taken(inc);
          }
        }
        if (g != null && g.loses(name, inc)) {
          store.arm(writer, inc);
        }
        long epoch = w.state().committed().writerEpoch();
        String end = "done";
        try {
          for (int seq = 0; seq < appendsPerIncarnation; seq++) {
            String v = LogChecker.value(writer, epoch, seq);
            AppendResult r = w.append(LogRecord.of(System.currentTimeMillis(), v));
            r.committed().thenAccept(h -> ack(v, r.lsn()));
            if (random.nextInt(4) == 0) {
              w.flush();
            }
            if (random.nextInt(3) == 0) {
              Thread.sleep(random.nextInt(3));
            }
          }
          w.flush();
        } catch (StaleWriterException e) {
          end = "stale";
        } catch (ObjlogException e) {
          end = e.getClass().getSimpleName();
          if (!(w.failure().orElse(null) instanceof StaleWriterException)) {
            unexpected.add(writer + ": " + e);
          } else {
            end = "stale";
          }
        }
        // A writer that lost the fence must itself end with StaleWriterException.
        if (end.equals("stale") && !(w.failure().orElse(null) instanceof StaleWriterException)) {
          unexpected.add(writer + ": flush said stale but failure() is " + w.failure());
        }
        try {
          w.close();
        } catch (ObjlogException e) {
          if (!end.equals("done") || !(e instanceof StaleWriterException)) {
            // Close of a superseded writer reports its terminal cause again; a clean one must close.
            if (end.equals("done")) {
              end = "stale-on-close";
            }
          }
        }
        outcome(writer, end);
        Thread.sleep(random.nextInt(5));
      }
    }
  }

  private void ack(String value, long lsn) {
    acknowledged.put(value, lsn);
    out.accept("ACK " + value + " " + lsn);
  }

  private void outcome(String writer, String end) {
    outcomes.merge(end, 1, Integer::sum);
    endings.put(writer, end);
    out.accept("END " + writer + " " + end);
  }

  /**
   * Child JVM: {@code <root> <stream> <name> <incarnations> <appends> <seed> <goFile> [<gateDir>
   * <gateSpec>]}.
   */
  public static void main(String[] args) throws Exception {
    Path root = Path.of(args[0]);
    Path go = Path.of(args[6]);
    FencingContender c = new FencingContender(args[2], line -> {
      synchronized (System.out) {
        System.out.println(line);
        System.out.flush();
      }
    });
    if (args.length > 8) {
      c.gate = new PublishGate(Path.of(args[7]), args[8]);
    }
    try (FilesystemObjectStore store = FilesystemObjectStore.open(root)) {
      System.out.println("READY");
      System.out.flush();
      while (!java.nio.file.Files.exists(go)) {
        Thread.sleep(2);
      }
      c.run(store, args[1], Integer.parseInt(args[3]), Integer.parseInt(args[4]), Long.parseLong(args[5]));
    }
    TimeUnit.MILLISECONDS.sleep(50);
    for (String u : c.unexpected) {
      System.out.println("UNEXPECTED " + u);
    }
    System.out.println("DONE");
    System.out.flush();
  }
}
