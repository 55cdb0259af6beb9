package dev.objlog.benchmarks;

import static dev.objlog.benchmarks.Data.MiB;
import static dev.objlog.benchmarks.Data.round;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * P7: writer memory under overload as a curve over the partition count. Each point runs in a
 * fresh child JVM ({@link WriterMemoryProcess}) with Native Memory Tracking on, so its RSS is
 * measured against that process's own baseline (in the harness JVM, memory freed by earlier
 * scenarios made RSS "above baseline" negative), and native memory is reported next to the heap.
 */
final class WriterMemoryScenario {
  static final long BUDGET_MIB = 128;
  static final long SLACK_MIB = 64;
  static final String HEAP = "-Xmx512m";

  private final boolean smoke;
  private final Path imgDir;
  private final String imgLink;

  WriterMemoryScenario(boolean smoke, Path imgDir, String imgLink) {
    this.smoke = smoke;
    this.imgDir = imgDir;
    this.imgLink = imgLink;
  }

  /** What one child reported. */
  record Point(int partitions, double maxHeapMib, double maxRssMib, double baselineRssMib, double maxDirectMib,
      double nmtCommittedMib, double nmtHeapCommittedMib, double lastRssMib, long records,
      List<double[]> samples, int skippedSamples) {
    /** NMT's committed memory outside the Java heap: metaspace, threads, code, GC, direct buffers. */
    double nmtNonHeapMib() {
      return nmtCommittedMib < 0 ? -1 : nmtCommittedMib - nmtHeapCommittedMib;
    }
  }

  Result run() throws Exception {
    Result r = new Result("P7", "P7 writer memory under overload, by partition count");
    int[] counts = smoke ? new int[] {1, 16} : new int[] {1, 16, 64, 256};
    double seconds = smoke ? 1 : 10;
    long sampleMs = smoke ? 250 : 500;
    double limit = BUDGET_MIB + SLACK_MIB;
    List<Point> points = new ArrayList<>();
    for (int n : counts) {
      points.add(point(n, seconds, sampleMs));
    }
    boolean met = points.stream().allMatch(p -> p.maxHeapMib() <= limit);
    double worst = points.stream().mapToDouble(Point::maxHeapMib).max().orElse(0);
    r.check("writer heap under overload ≤ memory budget + 64 MiB, 1 to " + counts[counts.length - 1] + " partitions",
        String.format("%.1f MiB max vs %.0f MiB", worst, limit), met);

    r.line("Overload: " + String.join(", ", java.util.Arrays.stream(counts).mapToObj(Integer::toString).toList())
        + " partition writers of one stream on a filesystem store behind the fault decorator (20 ms per "
        + "request, 5 MB/s per request), up to four producer threads appending 1 KiB text records round "
        + "robin as fast as backpressure lets them for " + (long) seconds + " s. One `MemoryBudget` of "
        + BUDGET_MIB + " MiB for all writers; writer options: backpressure 4 segments / 64 MiB per "
        + "writer (waiting), `maxRecordBytes` 64 KiB, 256 KiB blocks, batches of ≤ 8 MiB or 10 ms, zstd 1. "
        + "Each point is a fresh child JVM (`WriterMemoryProcess`, `" + HEAP
        + " -XX:NativeMemoryTracking=summary`): every " + sampleMs + " ms `System.gc()`, then the heap used "
        + "right after it as the collector reports it (`GcInfo.getMemoryUsageAfterGc`, heap pools; "
        + "`MemoryMXBean` read after the call also counts what the producers allocated since; a `System.gc()` "
        + "that ends without a full collection, as one can while zstd-jni holds a JNI critical section, "
        + "is asked again, up to 5 times, else the sample is left out), RSS (`VmRSS`) and direct buffers (BufferPoolMXBean); at the end of the overload "
        + "`jcmd VM.native_memory summary`. RSS above baseline is against the child's own RSS before its "
        + "log opened. NMT non-heap = NMT committed minus the committed heap (metaspace, threads, code, GC, "
        + "direct buffers); zstd-jni's native contexts are allocated outside the JVM and show only in RSS.");
    r.line("");
    r.line("| partitions | heap after GC (max) | RSS above baseline (max) | RSS baseline | direct buffers (max) "
        + "| NMT committed | NMT non-heap | records | heap ≤ " + (long) limit + " MiB? |");
    r.line("|---|---|---|---|---|---|---|---|---|");
    for (Point p : points) {
      r.line("| " + p.partitions() + " | " + mib(p.maxHeapMib()) + " | " + mib(p.maxRssMib()) + " | "
          + mib(p.baselineRssMib()) + " | " + mib(p.maxDirectMib()) + " | " + mib(p.nmtCommittedMib()) + " | "
          + mib(p.nmtNonHeapMib()) + " | " + p.records() + " | "
          + (p.maxHeapMib() <= limit ? "yes" : "**no**") + " |");
    }
    List<Map<String, Object>> data = new ArrayList<>();
    for (Point p : points) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("partitions", p.partitions());
      m.put("max_heap_after_gc_mib", round(p.maxHeapMib(), 1));
      m.put("max_rss_above_baseline_mib", round(p.maxRssMib(), 1));
      m.put("baseline_rss_mib", round(p.baselineRssMib(), 1));
      m.put("max_direct_mib", round(p.maxDirectMib(), 1));
      m.put("nmt_committed_mib", round(p.nmtCommittedMib(), 1));
      m.put("nmt_non_heap_mib", round(p.nmtNonHeapMib(), 1));
      m.put("records_appended", p.records());
      m.put("samples_without_full_gc", p.skippedSamples());
      m.put("samples", p.samples().stream().map(x -> java.util.Arrays.stream(x).map(v -> round(v, 2)).boxed().toList())
          .toList());
      data.add(m);
    }
    r.put("budget_mib", BUDGET_MIB).put("limit_mib", limit).put("points", data);

    double[] x = points.stream().mapToDouble(Point::partitions).toArray();
    Map<String, double[][]> series = new LinkedHashMap<>();
    series.put("heap after GC", new double[][] {x, points.stream().mapToDouble(Point::maxHeapMib).toArray()});
    series.put("RSS above baseline", new double[][] {x, points.stream().mapToDouble(Point::maxRssMib).toArray()});
    series.put("NMT non-heap", new double[][] {x, points.stream().mapToDouble(p -> Math.max(0, p.nmtNonHeapMib())).toArray()});
    series.put("budget + 64 MiB", new double[][] {x, points.stream().mapToDouble(p -> limit).toArray()});
    Charts.lines(imgDir.resolve("p7-memory.png"), "P7 writer memory under overload by partition count (max)",
        "partitions", "MiB", series, true);
    r.images.add("p7-memory.png");
    r.line("");
    r.line("![p7-memory.png](" + imgLink + "p7-memory.png)");
    return r;
  }

  private static String mib(double v) {
    return v < 0 ? "n/a" : String.format("%.1f MiB", v);
  }

  private Point point(int partitions, double seconds, long sampleMs) throws Exception {
    Path dir = Files.createTempDirectory("objlog-p7-");
    try {
      Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), HEAP,
          "-XX:NativeMemoryTracking=summary", "-cp", System.getProperty("java.class.path"),
          WriterMemoryProcess.class.getName(), dir.toString(), Integer.toString(partitions), Double.toString(seconds),
          Long.toString(BUDGET_MIB), Long.toString(sampleMs))
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
      double baseline = -1;
      double maxHeap = 0;
      double maxRss = 0;
      double maxDirect = 0;
      double lastRss = 0;
      double nmt = -1;
      double nmtHeap = -1;
      long records = -1;
      int skipped = 0;
      boolean done = false;
      List<double[]> samples = new ArrayList<>();
      try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = in.readLine()) != null; ) {
          String[] f = line.split(" ");
          switch (f[0]) {
            case "baseline" -> baseline = Long.parseLong(f[1]) / (double) MiB;
            case "sample" -> {
              double t = Double.parseDouble(f[1]);
              if (Long.parseLong(f[2]) < 0) {
                skipped++;
                continue;
              }
              double heap = Long.parseLong(f[2]) / (double) MiB;
              lastRss = Long.parseLong(f[3]) / (double) MiB;
              double rssAbove = lastRss - baseline;
              double direct = Long.parseLong(f[4]) / (double) MiB;
              maxHeap = Math.max(maxHeap, heap);
              maxRss = Math.max(maxRss, rssAbove);
              maxDirect = Math.max(maxDirect, direct);
              samples.add(new double[] {t, heap, rssAbove, direct, Long.parseLong(f[6]) / (double) MiB});
            }
            case "nmt" -> {
              nmt = Long.parseLong(f[1]) < 0 ? -1 : Long.parseLong(f[1]) / 1024.0;
              nmtHeap = Long.parseLong(f[2]) < 0 ? -1 : Long.parseLong(f[2]) / 1024.0;
            }
            case "records" -> records = Long.parseLong(f[1]);
            case "done" -> done = true;
            default -> { }
          }
        }
      }
      if (!child.waitFor(120, TimeUnit.SECONDS) || child.exitValue() != 0 || !done) {
        child.destroyForcibly();
        throw new IllegalStateException("the P7 child for " + partitions + " partitions did not finish cleanly");
      }
      return new Point(partitions, maxHeap, maxRss, baseline, maxDirect, nmt, nmtHeap, lastRss, records, samples, skipped);
    } finally {
      try (Stream<Path> s = Files.walk(dir)) {
        s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException e) {
        // a temp directory left behind
      }
    }
  }
}
