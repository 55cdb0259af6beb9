package dev.objlog.benchmarks;

import static dev.objlog.benchmarks.Data.MB;
import static dev.objlog.benchmarks.Data.MiB;
import static dev.objlog.benchmarks.Data.round;
import static dev.objlog.benchmarks.ScenarioContext.ms;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.sun.management.HotSpotDiagnosticMXBean;
import dev.objlog.AppendResult;
import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.PartitionWriter;
import dev.objlog.WriterOptions;
import dev.objlog.format.HashAlgorithm;
import dev.objlog.format.catalog.CatalogFormat;
import dev.objlog.format.catalog.CatalogIdentity;
import dev.objlog.format.catalog.Id128;
import dev.objlog.format.catalog.Key256;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.key.KeyPrefixes;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.format.key.StreamIds;
import dev.objlog.format.segment.BlockInfo;
import dev.objlog.format.segment.Codec;
import dev.objlog.format.segment.RangeReader;
import dev.objlog.format.segment.SegmentFormat;
import dev.objlog.format.segment.SegmentReader;
import dev.objlog.internal.catalog.CatalogOptions;
import dev.objlog.internal.catalog.CatalogStore;
import dev.objlog.internal.catalog.FencedSession;
import dev.objlog.internal.catalog.HeadSnapshot;
import dev.objlog.internal.catalog.PartitionCatalog;
import dev.objlog.read.ReadResult;
import dev.objlog.read.ReaderOptions;
import dev.objlog.read.Tailer;
import dev.objlog.read.Watch;
import dev.objlog.store.ListPage;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.fault.FaultInjectingObjectStore;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import dev.objlog.store.memory.MemoryObjectStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

/**
 * The harness scenarios P1–P7 and CATALOG (P8 is {@link ProducerScenario}). Each returns its figures, checks
 * against the targets, and prose.
 */
final class Scenarios {
  private final boolean smoke;
  private final Path imgDir;
  private final ScenarioContext context;
  private final byte[] pool;

  Scenarios(ScenarioContext context) {
    this.context = context;
    this.smoke = context.smoke();
    this.imgDir = context.imgDir();
    this.pool = context.pool();
  }


  private static WriterOptions.Pipeline pipeline(int blockBytes, int level) {
    return new WriterOptions.Pipeline(blockBytes, Codec.ZSTD, level, HashAlgorithm.XXH64, null);
  }

  /** Appends {@code count} records of {@code valueBytes} to one writer, starting at record index {@code from}. */
  private long append(PartitionWriter w, long from, long count, int valueBytes) {
    long ts = 1_776_000_000_000L;
    for (long i = from; i < from + count; i++) {
      w.append(LogRecord.of(ts + i / 64, Data.value(pool, i, valueBytes)));
    }
    return count * (valueBytes + 16L);
  }

  @SuppressWarnings("unchecked")
  private static <T> Map<String, T> ordered(Object... kv) {
    Map<String, T> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], (T) kv[i + 1]);
    }
    return m;
  }

  // --- P1 ---------------------------------------------------------------------------------------

  Result p1() throws Exception {
    // Each window starts after System.gc(), after which G1 gives heap back to the OS; the writer's
    // first allocations in the window then fault those pages in again (the kernel zeroes them on
    // the writer's CPU), while the reference allocates nothing and never pays. A running service's
    // heap stays grown, so P1 keeps it grown while it measures.
    String previous = setMaxHeapFreeRatio("100");
    try {
      return p1Measured();
    } finally {
      if (previous != null) {
        setMaxHeapFreeRatio(previous);
      }
    }
  }

  /**
   * Sets the JVM's manageable {@code MaxHeapFreeRatio} (100: a collection never shrinks the heap)
   * and returns the previous value, or null (nothing changed) on a JVM without that flag.
   */
  private static String setMaxHeapFreeRatio(String value) {
    try {
      HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      String previous = hotSpot.getVMOption("MaxHeapFreeRatio").getValue();
      hotSpot.setVMOption("MaxHeapFreeRatio", value);
      return previous;
    } catch (IllegalArgumentException | UnsupportedOperationException notHotSpot) {
      return null;
    }
  }

  private Result p1Measured() throws Exception {
    Result r = new Result("P1", "P1 append→commit throughput vs raw zstd compression (memory store)");
    long total = smoke ? 2 * MiB : 64 * MiB;
    // each timed side appends (compresses) the same built records this many times: ~1 s windows, so
    // a GC pause or a neighbour's burst is a small part of one (64 MiB once took 0.1–0.4 s)
    int passes = smoke ? 2 : 4; // 2 in the smoke run: CI goes through the pass loop
    int rounds = smoke ? 1 : 5;
    // warm-up: JIT and zstd for both sides
    for (int k = 0; k < (smoke ? 1 : 3); k++) {
      int valueBytes = 1024;
      P1Input in = p1Input(valueBytes, smoke ? MiB : 32 * MiB);
      p1Writer(in, valueBytes, 1 + 2 * (k % 2), 1 + 7 * (k % 2), 1 + (k % 2), 1);
      p1Raw(in, 1, 1, 1);
    }
    List<String> cats = new ArrayList<>();
    List<Double> writerMbs = new ArrayList<>();
    List<Double> limitMbs = new ArrayList<>();
    List<Map<String, Object>> rows = new ArrayList<>();
    List<String> all = new ArrayList<>();
    r.line("| record | level | partitions | threads | writer MB/s | raw zstd MB/s | ratio (median of " + rounds
        + ") | per round | ≥ 0.8? | CPU raw / writer | GC ms in writer / raw windows |");
    r.line("|---|---|---|---|---|---|---|---|---|---|---|");
    boolean allMet = true;
    double worst = Double.MAX_VALUE;
    for (int valueBytes : new int[] {1024, 16384}) {
      P1Input in = p1Input(valueBytes, total);
      for (int level : new int[] {1, 3}) {
        for (int partitions : new int[] {1, 8}) {
          int threads = partitions == 1 ? 1 : 2;
          // this configuration's own warm-up (its partition count and level), untimed
          p1Writer(in, valueBytes, level, partitions, threads, 1);
          p1Raw(in, level, threads, 1);
          double[] ratios = new double[rounds];
          double[] cpuRatios = new double[rounds];
          double[] w = new double[rounds];
          double[] raw = new double[rounds];
          double[] wGc = new double[rounds];
          double[] rawGc = new double[rounds];
          long[] wCpu = new long[rounds];
          long[] rawCpu = new long[rounds];
          for (int k = 0; k < rounds; k++) {
            // alternate which side goes first, so a trend in the machine's load hits both alike
            for (int side = 0; side < 2; side++) {
              boolean writer = (side == 0) == (k % 2 == 0);
              System.gc(); // the built records go to the old generation: no young pause copies them
              long c0 = WriterThroughputPairedRatio.cpu();
              long g0 = gcMillis();
              if (writer) {
                w[k] = p1Writer(in, valueBytes, level, partitions, threads, passes);
                wCpu[k] = WriterThroughputPairedRatio.cpu() - c0;
                wGc[k] = gcMillis() - g0;
              } else {
                raw[k] = p1Raw(in, level, threads, passes);
                rawCpu[k] = WriterThroughputPairedRatio.cpu() - c0;
                rawGc[k] = gcMillis() - g0;
              }
            }
            cpuRatios[k] = (double) rawCpu[k] / Math.max(1, wCpu[k]);
            ratios[k] = w[k] / raw[k];
          }
          double ratio = Data.median(ratios);
          double cpuRatio = Data.median(cpuRatios);
          double wm = Data.median(w);
          double rm = Data.median(raw);
          boolean met = ratio >= 0.8;
          allMet &= met;
          worst = Math.min(worst, ratio);
          String label = (valueBytes / 1024) + "KiB L" + level + " p" + partitions + " t" + threads;
          cats.add(label);
          all.add((valueBytes / 1024) + " KiB L" + level + " p" + partitions + " " + ScenarioContext.pct(ratio)
              + " (CPU " + ScenarioContext.pct(cpuRatio) + ")");
          writerMbs.add(round(wm, 1));
          limitMbs.add(round(0.8 * rm, 1));
          Map<String, Object> row = new LinkedHashMap<>();
          row.put("record_bytes", valueBytes);
          row.put("level", level);
          row.put("partitions", partitions);
          row.put("threads", threads);
          row.put("writer_mb_s", round(wm, 1));
          row.put("raw_mb_s", round(rm, 1));
          row.put("ratios", Arrays.stream(ratios).map(x -> round(x, 3)).boxed().toList());
          row.put("ratio", round(ratio, 3));
          row.put("cpu_ratios", Arrays.stream(cpuRatios).map(x -> round(x, 3)).boxed().toList());
          row.put("cpu_ratio", round(cpuRatio, 3));
          row.put("writer_gc_ms", Arrays.stream(wGc).boxed().toList());
          row.put("raw_gc_ms", Arrays.stream(rawGc).boxed().toList());
          rows.add(row);
          r.line("| " + (valueBytes / 1024) + " KiB | " + level + " | " + partitions + " | " + threads + " | "
              + round(wm, 1) + " | " + round(rm, 1) + " | " + round(ratio, 3) + " | "
              + Arrays.toString(Arrays.stream(ratios).map(x -> round(x, 2)).toArray()) + " | "
              + (met ? "yes" : "**no**") + " | " + round(cpuRatio, 2) + " | " + Math.round(Data.median(wGc)) + " / "
              + Math.round(Data.median(rawGc)) + " |");
        }
      }
    }
    r.put("bytes_per_run", total * passes).put("rounds", rounds).put("rows", rows);
    r.check("append→commit ≥ 0.8× raw zstd compression, same threads (8 configurations)",
        "worst " + ScenarioContext.pct(worst), allMet);
    r.summary("append→commit ≥ 0.8× raw zstd, same threads, every configuration (wall-time ratio, median of "
        + rounds + " paired rounds; CPU raw / writer in brackets)", String.join("; ", all), allMet);
    Charts.bars(imgDir.resolve("p1-throughput.png"), "P1 append→commit vs 0.8 × raw zstd (MB/s of record bytes)",
        "MB/s", cats, ordered("writer (end to end)", writerMbs, "limit: 0.8 × raw zstd, same threads", limitMbs));
    r.line("");
    r.line("Threads: 1 partition is appended by one thread; 8 partitions by two threads (four partitions "
        + "each, round robin). The reference compresses the same records (16-byte envelope + value) "
        + "in 1 MiB blocks with one reused `ZstdCompressCtx` per thread, the same number of threads. "
        + "Each configuration is warmed up on its own (one untimed pass of each side), then measured in "
        + rounds + " rounds; each round runs both sides back to back, alternating which goes first, each "
        + "side after a `System.gc()` (so the records built for it sit in the old generation and no young "
        + "pause copies them inside the window; `MaxHeapFreeRatio` is 100 meanwhile, so that collection does "
        + "not hand heap back to the OS for the writer's allocations to fault in again inside its window) "
        + "and over " + passes + " passes of " + (total >> 20)
        + " MiB (the same built records and blocks each pass). MB/s count encoded record bytes; the "
        + "writer's time runs from the first append to the last `flush()` returning (the `LogRecord`s are "
        + "built before it starts, as the reference's blocks are). CPU raw / writer: process CPU time of "
        + "the reference over that of the writer in the same round (all threads, GC and JIT included; "
        + "median): what the writer spends beyond compression, which the neighbours' load does not change. "
        + "GC ms: collection time (all collectors) inside the timed windows, median.");
    r.line("");
    r.line(context.img(r, "p1-throughput.png"));
    return r;
  }

  /** P1's input for one record size: the writer's records and the reference's raw blocks, built once. */
  private record P1Input(LogRecord[] records, byte[][] blocks, long bytes) {}

  private P1Input p1Input(int valueBytes, long totalBytes) {
    long records = totalBytes / (valueBytes + 16);
    // one timestamp for every record, on both sides: a partition's timestamps may not go back, and
    // each pass appends the same records again
    long ts = 1_776_000_000_000L;
    LogRecord[] built = new LogRecord[(int) records];
    for (int i = 0; i < built.length; i++) {
      built[i] = LogRecord.of(ts, Data.value(pool, i, valueBytes));
    }
    byte[][] blocks = Data.rawBlocks(pool, records, valueBytes, 1 << 20, ts, 0);
    return new P1Input(built, blocks, records * (valueBytes + 16));
  }

  private static long gcMillis() {
    long sum = 0;
    for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      sum += Math.max(0, gc.getCollectionTime());
    }
    return sum;
  }

  private double p1Writer(P1Input in, int valueBytes, int level, int partitions, int threads, int passes)
      throws Exception {
    LogRecord[] built = in.records();
    try (Objlog log = Objlog.open(new MemoryObjectStore(), "bench/p1")) {
      WriterOptions options = WriterOptions.builder().pipeline(pipeline(1 << 20, level)).build();
      PartitionWriter[] writers = new PartitionWriter[partitions];
      for (int p = 0; p < partitions; p++) {
        writers[p] = log.openWriter(p, options);
      }
      AtomicReference<Throwable> failed = new AtomicReference<>();
      long t0 = System.nanoTime();
      Thread[] ts = new Thread[threads];
      for (int t = 0; t < threads; t++) {
        int tt = t;
        ts[t] = new Thread(() -> {
          try {
            List<PartitionWriter> owned = new ArrayList<>();
            for (int p = tt; p < partitions; p += threads) {
              owned.add(writers[p]);
            }
            long j = 0;
            for (int pass = 0; pass < passes; pass++) {
              for (int i = tt; i < built.length; i += threads, j++) {
                owned.get((int) (j % owned.size())).append(built[i]);
              }
            }
          } catch (RuntimeException | Error e) {
            failed.compareAndSet(null, e);
          }
        });
        ts[t].start();
      }
      for (Thread t : ts) {
        t.join();
      }
      if (failed.get() != null) {
        throw new IllegalStateException("an appending thread failed", failed.get());
      }
      for (PartitionWriter w : writers) {
        w.flush();
      }
      double secs = (System.nanoTime() - t0) / 1e9;
      for (PartitionWriter w : writers) {
        w.close();
      }
      return (double) passes * built.length * (valueBytes + 16) / secs / MB;
    }
  }

  private double p1Raw(P1Input in, int level, int threads, int passes) throws Exception {
    byte[][] blocks = in.blocks();
    long bytes = Arrays.stream(blocks).mapToLong(b -> b.length).sum();
    AtomicLong sink = new AtomicLong();
    long t0 = System.nanoTime();
    Thread[] ts = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      int tt = t;
      ts[t] = new Thread(() -> {
        try (ZstdCompressCtx cctx = new ZstdCompressCtx()) {
          cctx.setLevel(level);
          byte[] dst = new byte[(int) Zstd.compressBound(1 << 20)];
          long sum = 0;
          for (int pass = 0; pass < passes; pass++) {
            for (int b = tt; b < blocks.length; b += threads) {
              sum += cctx.compressByteArray(dst, 0, dst.length, blocks[b], 0, blocks[b].length);
            }
          }
          sink.addAndGet(sum);
        }
      });
      ts[t].start();
    }
    for (Thread t : ts) {
      t.join();
    }
    double secs = (System.nanoTime() - t0) / 1e9;
    return (double) passes * bytes / secs / MB;
  }

  // --- P2 ---------------------------------------------------------------------------------------

  Result p2() throws Exception {
    Result r = new Result("P2", "P2 replay throughput vs raw zstd decompression of the same blocks");
    long total = smoke ? 2 * MiB : 64 * MiB;
    int rounds = smoke ? 1 : 11;
    r.line("| level | replay MB/s | raw decompress MB/s | ratio (median of " + rounds + ") | ratio IQR "
        + "| CPU ratio (raw CPU / replay CPU) | ≥ 0.8? |");
    r.line("|---|---|---|---|---|---|---|");
    List<Map<String, Object>> rows = new ArrayList<>();
    boolean allMet = true;
    List<String> cats = new ArrayList<>();
    List<Double> rep = new ArrayList<>();
    List<Double> lim = new ArrayList<>();
    for (int level : new int[] {1, 3}) {
      MemoryObjectStore store = new MemoryObjectStore();
      long records = total / 1040;
      try (Objlog log = Objlog.open(store, "bench/p2")) {
        try (PartitionWriter w = log.openWriter(0, WriterOptions.builder().pipeline(pipeline(1 << 20, level)).build())) {
          append(w, 0, records, 1024);
          w.flush();
        }
      }
      // the very frames of the committed segments, for the reference
      List<byte[]> frames = new ArrayList<>();
      List<Integer> rawSizes = new ArrayList<>();
      for (ObjectMetadata m : listAll(store, "")) {
        if (!m.key().endsWith(".plseg")) {
          continue;
        }
        byte[] obj = store.get(m.key()).bytes();
        SegmentReader sr = SegmentReader.open(RangeReader.ofBytes(obj), obj.length);
        for (BlockInfo b : sr.blocks()) {
          int from = (int) b.offset() + SegmentFormat.BLOCK_PREAMBLE_SIZE;
          frames.add(Arrays.copyOfRange(obj, from, from + (int) b.storedSize()));
          rawSizes.add((int) b.rawSize());
        }
      }
      long rawBytes = rawSizes.stream().mapToLong(Integer::longValue).sum();
      int maxRaw = rawSizes.stream().mapToInt(Integer::intValue).max().orElse(1);
      for (int k = 0; k < (smoke ? 1 : 6); k++) { // replay warms up slowly (JIT of the read path)
        p2Replay(store, records);
        p2Raw(frames, maxRaw);
      }
      double[] ratios = new double[rounds];
      double[] cpuRatios = new double[rounds];
      double[] rp = new double[rounds];
      double[] rw = new double[rounds];
      for (int k = 0; k < rounds; k++) {
        double[] a;
        double[] b;
        if (k % 2 == 0) {
          a = p2Replay(store, records);
          b = p2Raw(frames, maxRaw);
        } else {
          b = p2Raw(frames, maxRaw);
          a = p2Replay(store, records);
        }
        rp[k] = rawBytes / a[0] / MB;
        rw[k] = rawBytes / b[0] / MB;
        ratios[k] = rp[k] / rw[k];
        cpuRatios[k] = b[1] / a[1];
      }
      double ratio = Data.median(ratios);
      double[] sorted = ratios.clone();
      Arrays.sort(sorted);
      String iqr = round(sorted[rounds / 4], 2) + "–" + round(sorted[(3 * rounds) / 4], 2);
      double cpuRatio = Data.median(cpuRatios);
      boolean met = ratio >= 0.8;
      allMet &= met;
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("level", level);
      row.put("raw_block_bytes", rawBytes);
      row.put("blocks", frames.size());
      row.put("replay_mb_s", round(Data.median(rp), 1));
      row.put("raw_mb_s", round(Data.median(rw), 1));
      row.put("ratios", Arrays.stream(ratios).map(x -> round(x, 3)).boxed().toList());
      row.put("ratio", round(ratio, 3));
      row.put("cpu_ratios", Arrays.stream(cpuRatios).map(x -> round(x, 3)).boxed().toList());
      row.put("cpu_ratio", round(cpuRatio, 3));
      rows.add(row);
      cats.add("level " + level);
      rep.add(round(Data.median(rp), 1));
      lim.add(round(0.8 * Data.median(rw), 1));
      r.line("| " + level + " | " + round(Data.median(rp), 1) + " | " + round(Data.median(rw), 1) + " | "
          + round(ratio, 3) + " | " + iqr + " | " + round(cpuRatio, 3) + " | " + (met ? "yes" : "**no**") + " |");
      r.check("replay ≥ 0.8× raw decompression, level " + level, ScenarioContext.pct(ratio), met);
    }
    r.put("rows", rows);
    Charts.bars(imgDir.resolve("p2-replay.png"), "P2 replay vs 0.8 × raw zstd decompression (MB/s of block bytes)",
        "MB/s", cats, ordered("replay (PartitionReader.replay)", rep, "limit: 0.8 × raw decompress", lim));
    r.line("");
    r.line("Replay: a fresh `Objlog` over the same memory store, `reader().partition(0).replay(0)`, every "
        + "record's value size summed (read-ahead 8 blocks on the log's executor; catalog, segment opens, "
        + "block hashes and record validation included). Reference: one reused `ZstdDecompressCtx` "
        + "decompressing the same frames, taken out of the committed segments, into one reused buffer. "
        + "Both MB/s are raw block bytes / time. Rounds alternate which side goes first. Replay decodes "
        + "blocks on the log's executor (read-ahead) while the reference uses one thread, so on a loaded "
        + "machine the ratio also measures who got the cores: the CPU ratio (process CPU time of the "
        + "reference / of the replay, JIT and GC threads included) shows the work per byte instead.");
    r.line("");
    r.line(context.img(r, "p2-replay.png"));
    return r;
  }

  private static List<ObjectMetadata> listAll(ObjectStore store, String prefix) {
    List<ObjectMetadata> out = new ArrayList<>();
    String after = "";
    while (true) {
      ListPage page = store.list(prefix, after, 1000);
      out.addAll(page.entries());
      if (!page.hasMore()) {
        return out;
      }
      after = page.nextAfterKey();
    }
  }

  /** {wall seconds, process CPU seconds} of one replay of every record. */
  private double[] p2Replay(ObjectStore store, long records) {
    long cpu0 = processCpuNanos();
    long t0 = System.nanoTime();
    long n;
    try (Objlog log = Objlog.open(store, "bench/p2");
        Stream<dev.objlog.read.ReadRecord> s = log.reader().partition(0).replay(0)) {
      long[] acc = new long[2];
      s.forEach(rec -> {
        acc[0]++;
        acc[1] += rec.valueSize();
      });
      n = acc[0];
    }
    double[] times = {(System.nanoTime() - t0) / 1e9, (processCpuNanos() - cpu0) / 1e9};
    if (n != records) {
      throw new IllegalStateException("replayed " + n + " records, expected " + records);
    }
    return times;
  }

  /** {wall seconds, process CPU seconds} of decompressing every frame once. */
  private static double[] p2Raw(List<byte[]> frames, int maxRaw) {
    long cpu0 = processCpuNanos();
    long t0 = System.nanoTime();
    try (ZstdDecompressCtx d = new ZstdDecompressCtx()) {
      byte[] dst = new byte[maxRaw];
      long sum = 0;
      for (byte[] f : frames) {
        sum += d.decompressByteArray(dst, 0, dst.length, f, 0, f.length);
      }
      if (sum < 0) {
        throw new IllegalStateException();
      }
    }
    return new double[] {(System.nanoTime() - t0) / 1e9, (processCpuNanos() - cpu0) / 1e9};
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  // --- P3 ---------------------------------------------------------------------------------------

  Result p3() throws Exception {
    Result r = new Result("P3", "P3 flush latency and pipelined throughput under store latency");
    long bandwidth = 50_000_000L;
    int[] rtts = smoke ? new int[] {2} : new int[] {20, 50};
    int samples = smoke ? 3 : 30;
    long[] rawSizes = smoke ? new long[] {64 << 10} : new long[] {256 << 10, 4 * MiB};
    r.line("Store: `FaultInjectingObjectStore` over memory, fixed latency = RTT per request (no jitter), "
        + "bandwidth cap " + bandwidth / 1_000_000 + " MB/s per request. Limit = 2.2 × RTT + stored "
        + "segment bytes / bandwidth.");
    r.line("");
    r.line("| RTT | segment (raw → stored) | flush p50 | flush p99 | limit | met? |");
    r.line("|---|---|---|---|---|---|");
    List<Map<String, Object>> rows = new ArrayList<>();
    List<String> cats = new ArrayList<>();
    List<Double> p50s = new ArrayList<>();
    List<Double> p99s = new ArrayList<>();
    List<Double> lims = new ArrayList<>();
    StringBuilder breakdown = new StringBuilder();
    for (int rtt : rtts) {
      for (long raw : rawSizes) {
        FaultInjectingObjectStore fault = FaultInjectingObjectStore.builder(new MemoryObjectStore())
            .latency(Duration.ofMillis(rtt), Duration.ZERO).bandwidth(bandwidth).build();
        MeteredStore store = new MeteredStore(fault);
        double[] lat = new double[samples];
        double[][] phases = new double[5][samples];
        long perFlush = raw / 1040;
        try (Objlog log = Objlog.open(store, "bench/p3")) {
          WriterOptions o = WriterOptions.builder().batch(Duration.ZERO, 64 * MiB, 1 << 20).build();
          try (PartitionWriter w = log.openWriter(0, o)) {
            long i = 0;
            for (int k = 0; k < 3; k++) {
              append(w, i, perFlush, 1024);
              i += perFlush;
              w.flush();
            }
            store.reset();
            store.recording = true;
            for (int k = 0; k < samples; k++) {
              append(w, i, perFlush, 1024);
              i += perFlush;
              store.events.clear();
              long t0 = System.nanoTime();
              w.flush();
              long t1 = System.nanoTime();
              lat[k] = (t1 - t0) / 1e6;
              long[] up = null;
              long[] cas = null;
              for (long[] e : store.events) {
                if (e[0] == 0 && up == null) {
                  up = e;
                } else if (e[0] == 1 && cas == null) {
                  cas = e;
                }
              }
              if (up != null && cas != null) {
                phases[0][k] = (up[1] - t0) / 1e6;
                phases[1][k] = (up[2] - up[1]) / 1e6;
                phases[2][k] = (cas[1] - up[2]) / 1e6;
                phases[3][k] = (cas[2] - cas[1]) / 1e6;
                phases[4][k] = (t1 - cas[2]) / 1e6;
              }
            }
          }
        }
        double stored = store.segmentSizes().stream().mapToLong(Long::longValue).average().orElse(0);
        double transferMs = stored / bandwidth * 1000;
        double limit = 2.2 * rtt + transferMs;
        double[] s = lat.clone();
        Arrays.sort(s);
        double p50 = Data.percentile(s, 50);
        double p99 = Data.percentile(s, 99);
        boolean met = p50 <= limit && p99 <= limit;
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("rtt_ms", rtt);
        row.put("raw_bytes", raw);
        row.put("stored_bytes_avg", Math.round(stored));
        row.put("p50_ms", round(p50, 2));
        row.put("p99_ms", round(p99, 2));
        row.put("max_ms", round(s[s.length - 1], 2));
        row.put("limit_ms", round(limit, 2));
        row.put("samples", samples);
        row.put("requests", store.snapshot());
        Map<String, Object> ph = new LinkedHashMap<>();
        String[] names = {"flush_to_upload_start", "upload", "upload_end_to_head_swap", "head_swap", "swap_to_flush_return"};
        for (int q = 0; q < 5; q++) {
          ph.put(names[q] + "_p50_ms", round(Data.median(phases[q]), 2));
        }
        row.put("phases", ph);
        rows.add(row);
        breakdown.append("| " + rtt + " ms | " + raw / 1024 + " KiB | " + ms(Data.median(phases[0])) + " | "
            + ms(Data.median(phases[1])) + " | " + ms(rtt + stored / bandwidth * 1000) + " | " + ms(Data.median(phases[2])) + " | " + ms(Data.median(phases[3]))
            + " | " + ms(Data.median(phases[4])) + " | " + ms(Data.median(lat)) + " |\n");
        String label = rtt + " ms, " + (raw >= MiB ? raw / MiB + " MiB" : raw / 1024 + " KiB");
        cats.add(label);
        p50s.add(round(p50, 1));
        p99s.add(round(p99, 1));
        lims.add(round(limit, 1));
        r.line("| " + rtt + " ms | " + (raw / 1024) + " KiB → " + Math.round(stored / 1024) + " KiB | " + ms(p50)
            + " | " + ms(p99) + " | " + ms(limit) + " | " + (met ? "yes" : "**no**") + " |");
        r.check("flush p50 and p99 ≤ 2.2×RTT + transfer (RTT " + rtt + " ms, " + raw / 1024 + " KiB raw)",
            "p50 " + ms(p50) + ", p99 " + ms(p99) + " vs " + ms(limit), met);
      }
    }
    r.put("flush", rows);
    r.line("");
    r.line("Where a flush's time goes (medians; timestamps taken by a wrapper around the latency "
        + "decorator, so upload and head swap include their injected RTT and transfer):");
    r.line("");
    r.line("| RTT | segment (raw) | flush → upload starts (cut, seal last block, index, trailer) | upload (RTT + transfer) | RTT + stored / bandwidth | upload done → head swap starts | head swap (RTT) | swap → flush returns | flush p50 |");
    r.line("|---|---|---|---|---|---|---|---|---|");
    r.details.append(breakdown);
    r.line("");
    r.line("The decorator sleeps `bytes / bandwidth` on every `write` of an upload, and the writer "
        + "uploads a segment as several chunks, so each chunk adds one sleep's overshoot (≥ the timer "
        + "slack, more on a loaded machine): compare the upload column with RTT + stored / bandwidth.");
    Charts.bars(imgDir.resolve("p3-flush.png"), "P3 flush() latency vs limit (2.2 × RTT + transfer)", "ms", cats,
        ordered("p50", p50s, "p99", p99s, "limit", lims));
    r.line("");
    r.line(context.img(r, "p3-flush.png"));
    r.line("");
    r.line("Multipart segments: the decorator models a streaming upload as one request (one latency, "
        + "bandwidth per write), so segments above one S3 part (8 MiB) are **not measured separately** "
        + "here; on S3 they cost N + 2 requests (see P4's request model).");
    r.line("");

    // sustained throughput with pipelining
    long total = smoke ? 2 * MiB : 96 * MiB;
    int rounds = smoke ? 1 : 4;
    int[] all = smoke ? new int[] {0, 2} : new int[] {0, 20, 50};
    Map<Integer, double[]> mbs = new LinkedHashMap<>();
    for (int rtt : all) {
      mbs.put(rtt, new double[rounds]);
    }
    int adaptiveRtt = all[all.length - 1];
    double[] adaptive = new double[rounds];
    double[] wide = new double[rounds];
    double[] ownPool = new double[rounds];
    Map<Integer, double[]> whole = new LinkedHashMap<>();
    for (int rtt : all) {
      whole.put(rtt, new double[rounds]);
    }
    for (int k = 0; k < rounds; k++) {
      for (int rtt : all) {
        double[] run = p3Throughput(rtt, bandwidth, total, false, 0);
        whole.get(rtt)[k] = run[0];
        mbs.get(rtt)[k] = run[1];
      }
      adaptive[k] = p3Throughput(adaptiveRtt, bandwidth, total, true, 0)[1];
      wide[k] = p3Throughput(adaptiveRtt, bandwidth, total, false, 16)[1];
      ownPool[k] = p3Throughput(adaptiveRtt, bandwidth, total, false, -8)[1];
    }
    double wholeBase = Data.median(whole.get(0));
    double base = Data.median(mbs.get(0));
    r.line("Sustained throughput: one thread appends " + total / MiB + " MiB of 1 KiB records as fast as "
        + "it can, default writer options (10 ms batches, ≤ 16 384 records, 4 segments in flight, zstd 3), "
        + "then flushes; same bandwidth cap, latency 0 vs RTT. Median of " + rounds + " rounds. Steady "
        + "state: record bytes between the commits of the records at 10 % and 90 % of the run over the "
        + "time between those commits (what the pipeline sustains; the target's figure). Whole run: "
        + "first append to the final `flush()` returning, which adds one flush's fixed latency "
        + "(about 2 RTT + transfer) to a run of about a second.");
    r.line("");
    r.line("| RTT | steady MB/s (median) | rounds | vs zero latency | ≥ 0.9? | whole run MB/s | vs zero latency |");
    r.line("|---|---|---|---|---|---|---|");
    List<Map<String, Object>> trows = new ArrayList<>();
    for (int rtt : all) {
      double m = Data.median(mbs.get(rtt));
      double ratio = m / base;
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("rtt_ms", rtt);
      row.put("mb_s", round(m, 1));
      row.put("rounds", Arrays.stream(mbs.get(rtt)).map(x -> round(x, 1)).boxed().toList());
      row.put("ratio", round(ratio, 3));
      double wholeMbs = Data.median(whole.get(rtt));
      row.put("whole_run_mb_s", round(wholeMbs, 1));
      row.put("whole_run_ratio", round(wholeMbs / wholeBase, 3));
      trows.add(row);
      r.line("| " + rtt + " ms | " + round(m, 1) + " | " + Arrays.toString(Arrays.stream(mbs.get(rtt)).map(x -> round(x, 1)).toArray())
          + " | " + round(ratio, 3) + " | "
          + (rtt == 0 ? "(reference)" : ratio >= 0.9 ? "yes" : "**no**") + " | " + round(wholeMbs, 1) + " | "
          + round(wholeMbs / wholeBase, 3) + " |");
      if (rtt != 0) {
        r.check("pipelined throughput ≥ 0.9× zero-latency (RTT " + rtt + " ms, steady state)", ScenarioContext.pct(ratio)
            + " (whole run incl. final flush " + ScenarioContext.pct(Data.median(whole.get(rtt)) / wholeBase) + ")", ratio >= 0.9);
      }
    }
    double am = Data.median(adaptive);
    r.line("| " + adaptiveRtt + " ms, `adaptiveDelay` 1–250 ms (lever, not the target's configuration) | "
        + round(am, 1) + " | " + Arrays.toString(Arrays.stream(adaptive).map(x -> round(x, 1)).toArray()) + " | "
        + round(am / base, 3) + " | | | |");
    double wm = Data.median(wide);
    r.line("| " + adaptiveRtt + " ms, 16 segments in flight (lever, not the target's configuration) | "
        + round(wm, 1) + " | " + Arrays.toString(Arrays.stream(wide).map(x -> round(x, 1)).toArray()) + " | "
        + round(wm / base, 3) + " | | | |");
    double pm = Data.median(ownPool);
    r.line("| " + adaptiveRtt + " ms, seal and upload on a pool of 8 threads (lever, not the target's configuration) | "
        + round(pm, 1) + " | " + Arrays.toString(Arrays.stream(ownPool).map(x -> round(x, 1)).toArray()) + " | "
        + round(pm / base, 3) + " | | | |");
    r.line("");
    double plain = Data.median(mbs.get(adaptiveRtt)) / base;
    r.line("Levers tried at " + adaptiveRtt + " ms (steady state against zero latency): `adaptiveDelay` "
        + ScenarioContext.pct(am / base) + ", 16 segments in flight " + ScenarioContext.pct(wm / base) + ", seals and uploads on their own "
        + "8-thread pool " + ScenarioContext.pct(pm / base) + ", against " + ScenarioContext.pct(plain) + " with "
        + "the defaults. The gap between the whole-run and the steady-state ratio is the final flush.");
    Map<String, Object> ad = new LinkedHashMap<>();
    ad.put("rtt_ms", adaptiveRtt);
    ad.put("mb_s", round(am, 1));
    ad.put("ratio", round(am / base, 3));
    r.put("adaptive_delay", ad);
    r.put("inflight_16", Map.of("rtt_ms", adaptiveRtt, "mb_s", round(wm, 1), "ratio", round(wm / base, 3)));
    r.put("seal_pool_8", Map.of("rtt_ms", adaptiveRtt, "mb_s", round(pm, 1), "ratio", round(pm / base, 3)));
    r.put("throughput", trows);
    return r;
  }

  /**
   * One sustained P3 run: {MB/s from the first append to the flush returning, MB/s between the
   * commits of the records at 10 % and 90 % (steady state)}; {@code inflight} > 0 overrides the 4
   * segments in flight, {@code inflight} < 0 gives seals and uploads a pool of {@code -inflight} threads.
   */
  private double[] p3Throughput(int rtt, long bandwidth, long total, boolean adaptive, int inflight) {
    FaultInjectingObjectStore fault = FaultInjectingObjectStore.builder(new MemoryObjectStore())
        .latency(Duration.ofMillis(rtt), Duration.ZERO).bandwidth(bandwidth).build();
    long records = total / 1040;
    WriterOptions.Builder b = WriterOptions.builder();
    if (adaptive) {
      // the multiplier the figures in docs/BENCHMARKS.md were measured with (the default was 4 then)
      b.adaptiveDelay(new WriterOptions.AdaptiveDelay(true, Duration.ofMillis(1), Duration.ofMillis(250), 4.0));
    }
    if (inflight > 0) {
      b.backpressure(inflight, WriterOptions.BackpressurePolicy.DEFAULT.maxPendingBytes());
    }
    // the store's latency is slept on the thread that drains a segment into its upload; by default
    // that is the log's scheduler, which also seals blocks: a pool of its own keeps sealing going
    ExecutorService ownPool = inflight < 0 ? Executors.newFixedThreadPool(-inflight) : null;
    if (ownPool != null) {
      WriterOptions.Pipeline d = WriterOptions.Pipeline.DEFAULT;
      b.pipeline(new WriterOptions.Pipeline(d.blockBytes(), d.codec(), d.zstdLevel(), d.hashAlgorithm(), ownPool));
    }
    WriterOptions o = b.build();
    try (Objlog log = Objlog.open(fault, "bench/p3t"); PartitionWriter w = log.openWriter(0, o)) {
      long from = records / 10;
      long to = records - records / 10;
      AtomicLong tFrom = new AtomicLong();
      AtomicLong tTo = new AtomicLong();
      long t0 = System.nanoTime();
      for (long i = 0; i < records; i++) {
        AppendResult a = w.append(LogRecord.of(1_776_000_000_000L + i / 64, Data.value(pool, i, 1024)));
        if (i == from) {
          a.committed().thenRun(() -> tFrom.set(System.nanoTime()));
        } else if (i == to) {
          a.committed().thenRun(() -> tTo.set(System.nanoTime()));
        }
      }
      w.flush();
      long t1 = System.nanoTime();
      long window = tTo.get() - tFrom.get();
      // both in one commit (tiny smoke runs): no steady state to measure
      double steady = window > 0 ? (to - from) * 1040.0 / (window / 1e9) / MB : Double.NaN;
      return new double[] {records * 1040.0 / ((t1 - t0) / 1e9) / MB, steady};
    } finally {
      if (ownPool != null) {
        ownPool.shutdown();
      }
    }
  }

  // --- P4 ---------------------------------------------------------------------------------------

  Result p4() throws Exception {
    Result r = new Result("P4", "P4 head writes per committed segment, requests and S3 cost per GiB");
    // (a) no backlog: every segment flushed alone
    int n = smoke ? 10 : 100;
    MeteredStore a = new MeteredStore(new MemoryObjectStore());
    double aRatio;
    long aSegments;
    long aHead;
    try (Objlog log = Objlog.open(a, "bench/p4a"); PartitionWriter w = log.openWriter(0)) {
      long before = w.flush().segmentCount();
      a.reset();
      long i = 0;
      for (int k = 0; k < n; k++) {
        append(w, i, 64, 1024);
        i += 64;
        w.flush();
      }
      aSegments = w.flush().segmentCount() - before;
      aHead = a.count("CAS", MeteredStore.Kind.HEAD);
      aRatio = (double) aHead / aSegments;
    }
    // (b) backlog: head writes take 30 ms, cuts every ~256 KiB or 2 ms
    long delayMs = smoke ? 5 : 30;
    MeteredStore b = new MeteredStore(new MemoryObjectStore(), delayMs * 1_000_000L);
    long bBytes = smoke ? 2 * MiB : 48 * MiB;
    double bRatio;
    long bSegments;
    long bHead;
    try (Objlog log = Objlog.open(b, "bench/p4b")) {
      WriterOptions o = WriterOptions.builder().batch(Duration.ofMillis(2), 256 << 10, 16_384)
          .backpressure(64, 256 * MiB).build();
      try (PartitionWriter w = log.openWriter(0, o)) {
        long before = w.flush().segmentCount();
        b.reset();
        append(w, 0, bBytes / 1040, 1024);
        bSegments = w.flush().segmentCount() - before;
        bHead = b.count("CAS", MeteredStore.Kind.HEAD);
        bRatio = (double) bHead / bSegments;
      }
    }
    r.line("| case | segments committed | head writes | head writes / segment | target | met? |");
    r.line("|---|---|---|---|---|---|");
    r.line("| no backlog (append 64 records, `flush()`, ×" + n + ") | " + aSegments + " | " + aHead + " | "
        + round(aRatio, 3) + " | ≤ 1.0 | " + (aRatio <= 1.0 ? "yes" : "**no**") + " |");
    r.line("| backlog (head write +" + delayMs + " ms, 256 KiB / 2 ms batches, 64 in flight) | " + bSegments
        + " | " + bHead + " | " + round(bRatio, 3) + " | < 0.5 | " + (bRatio < 0.5 ? "yes" : "**no**") + " |");
    r.check("head writes per segment ≤ 1.0 (no backlog)", round(aRatio, 3) + "", aRatio <= 1.0);
    r.check("head writes per segment < 0.5 under backlog", round(bRatio, 3) + "", bRatio < 0.5);
    r.put("no_backlog", Map.of("segments", aSegments, "head_writes", aHead, "ratio", round(aRatio, 4),
        "requests", a.snapshot()));
    r.put("backlog", Map.of("segments", bSegments, "head_writes", bHead, "ratio", round(bRatio, 4),
        "head_write_delay_ms", delayMs, "requests", b.snapshot()));

    // (c) requests and S3 cost per GiB written
    long scale = smoke ? 64 : 1;
    long written = smoke ? 4 * MiB : 256 * MiB;
    long partSize = 8 * MiB;
    r.line("");
    r.line("Requests per GiB of record bytes written (" + written / MiB + " MiB written per row, zstd 3, "
        + "one writer, cut by size only, scaled to 1 GiB). S3 request model (the S3 adapter): a segment "
        + "of at most one part (8 MiB) is one conditional PutObject, a larger one a multipart upload of "
        + "N parts = N + 2 requests; each catalog page is one PUT; each head swap one PUT. Prices "
        + "(**assumption**: S3 Standard, us-east-1 list prices) $0.005 per 1 000 PUT-class and $0.0004 "
        + "per 1 000 GET-class requests; storage and transfer not included.");
    r.line("");
    r.line("| segment (raw) | stored / segment | segments | S3 PUTs (segments) | page PUTs | head PUTs | GETs | S3 requests / GiB | $ / GiB |");
    r.line("|---|---|---|---|---|---|---|---|---|");
    List<Map<String, Object>> rows = new ArrayList<>();
    for (long seg : new long[] {MiB, 8 * MiB, 64 * MiB}) {
      long segBytes = seg / scale;
      MeteredStore s = new MeteredStore(new MemoryObjectStore());
      try (Objlog log = Objlog.open(s, "bench/p4c")) {
        WriterOptions o = WriterOptions.builder().batch(Duration.ZERO, segBytes, 1 << 24)
            .backpressure(4, Math.max(256 * MiB, 5 * segBytes)).build();
        try (PartitionWriter w = log.openWriter(0, o)) {
          w.flush();
          s.reset();
          append(w, 0, written / 1040, 1024);
          w.flush();
        }
      }
      List<Long> sizes = s.segmentSizes();
      long segPuts = s.s3SegmentPuts(partSize);
      long pagePuts = s.count("PUT_IF_ABSENT", MeteredStore.Kind.PAGE);
      long headPuts = s.count("CAS", MeteredStore.Kind.HEAD);
      long gets = s.gets();
      double perGiB = (double) (1L << 30) / written;
      double reqs = (segPuts + pagePuts + headPuts + gets) * perGiB;
      double cost = ((segPuts + pagePuts + headPuts) * RemoteScenarios.PUT_CLASS + gets * RemoteScenarios.GET_CLASS)
          * perGiB;
      double avgStored = sizes.stream().mapToLong(Long::longValue).average().orElse(0);
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("segment_raw_bytes", segBytes);
      row.put("segments", sizes.size());
      row.put("stored_bytes_avg", Math.round(avgStored));
      row.put("s3_segment_puts", segPuts);
      row.put("page_puts", pagePuts);
      row.put("head_puts", headPuts);
      row.put("gets", gets);
      row.put("s3_requests_per_gib", round(reqs, 1));
      row.put("usd_per_gib", round(cost, 6));
      row.put("requests", s.snapshot());
      rows.add(row);
      r.line("| " + (segBytes >= MiB ? segBytes / MiB + " MiB" : segBytes / 1024 + " KiB") + " | "
          + String.format("%.2f MB", avgStored / 1e6) + " | " + sizes.size() + " | " + segPuts + " | " + pagePuts
          + " | " + headPuts + " | " + gets + " | " + round(reqs, 1) + " | $" + String.format("%.5f", cost) + " |");
    }
    r.put("cost", rows);
    r.put("price_assumption", "S3 Standard us-east-1: $0.005/1000 PUT, $0.0004/1000 GET");
    r.check("requests and S3 cost per GiB for 1/8/64 MiB segments", "reported (table)", null);
    return r;
  }

  // --- P5 ---------------------------------------------------------------------------------------

  Result p5() throws Exception {
    Result r = new Result("P5", "P5 GETs per point read, cold and warm");
    r.line("Per case: one partition of segments of 1 KiB records (16 KiB blocks, zstd 3), catalog fan-out 128; "
        + "then a new `Objlog` and reader over a request-counting wrapper of the same memory store, "
        + "`fetch(lsn)` of a record a third of the way in (cold), then another record in the same block "
        + "and one in another block of that segment (warm). Catalog levels below the head: a cold "
        + "`PartitionCatalog.findSegment` for the same LSN. Target = 1 head + levels + 1 tail read + 1 block.");
    r.line("");
    r.line("| case | stored segment | cold GETs | of which head | catalog pages | segment | target | warm, same block | warm, other block | met? |");
    r.line("|---|---|---|---|---|---|---|---|---|---|");
    Map<String, Object> small = p5Case(r, "small segments (read whole)", smoke ? 40 : 600, 60);
    Map<String, Object> large = p5Case(r, "large segments (ranged reads)", smoke ? 4 : 200, 1200);
    r.put("small", small).put("large", large);
    long largeSegmentGets = (long) large.get("cold_segment_gets");
    r.check("trailer + index in one ranged request (large segments)", largeSegmentGets <= 3
        ? "yes: " + largeSegmentGets + " segment GETs = tail (index + trailer), preamble, block"
        : largeSegmentGets + " segment GETs", largeSegmentGets <= 3);
    r.line("");
    r.line("Small segments (at most 256 KiB stored) are read with one GET of the whole object when opened; "
        + "it serves the trailer, preamble, index and every block, so a cold point read costs the head, "
        + "the catalog pages on its path and that one GET. Larger segments are opened with one ranged GET "
        + "for the index and trailer together (adjacent at the end of the object) and one for the 64-byte "
        + "file preamble, then one ranged GET per block: the preamble GET is the one above the target. "
        + "A point read lists only as many catalog entries as records it may return, so it no longer "
        + "loads the leaf page after its own (it listed 128 segments before: one page GET too many from "
        + "anywhere but a leaf's start).");
    r.line("");
    r.line("Next lever (large segments): check the file preamble when block 0 is fetched (it is adjacent: "
        + "one range `[0, 128 + stored size)`) instead of at open; a read that never touches block 0 "
        + "then never needs it. The preamble repeats only what the trailer holds (and the trailer is "
        + "hash-checked and matched against the catalog entry), but FORMAT §1.11 reads it at open, so "
        + "this is a change to `SegmentReader` and the spec, not to the reader's lookup path.");
    return r;
  }

  /** One P5 case: writes the partition, measures cold and warm point reads, adds a table row and checks. */
  private Map<String, Object> p5Case(Result r, String label, int segments, int perSegment) throws Exception {
    MemoryObjectStore mem = new MemoryObjectStore();
    String stream = "bench/p5";
    try (Objlog log = Objlog.open(mem, stream)) {
      WriterOptions o = WriterOptions.builder().pipeline(pipeline(16 << 10, 3))
          .batch(Duration.ZERO, 64 * MiB, perSegment).build();
      try (PartitionWriter w = log.openWriter(0, o)) {
        append(w, 0, (long) segments * perSegment, 1024);
        w.flush();
      }
    }
    long seg = segments / 3;
    long lsnCold = seg * perSegment + 1;
    KeyPrefixes prefixes = KeyPrefixes.resolve("", "", "");
    MeteredStore probe = new MeteredStore(mem);
    PartitionCatalog pc = new CatalogStore(probe, CatalogOptions.defaults()).partition(
        PartitionKeys.of(prefixes, stream, 0),
        new CatalogIdentity(0, Key256.of(StreamIds.streamKey(stream)), Key256.of(prefixes.dataRootKey())));
    HeadSnapshot hs = pc.loadHead().orElseThrow();
    probe.reset();
    long storedSize = pc.findSegment(hs.head(), lsnCold).orElseThrow().sizeBytes();
    long levels = probe.gets(MeteredStore.Kind.PAGE);
    MeteredStore s = new MeteredStore(mem);
    Map<String, Object> out = new LinkedHashMap<>();
    try (Objlog log = Objlog.open(s, stream)) {
      var reader = log.newReader(ReaderOptions.defaults());
      var p = reader.partition(0);
      s.reset();
      p.fetch(lsnCold).orElseThrow();
      Map<String, Long> cold = s.snapshot();
      long coldGets = s.gets();
      long coldHead = s.gets(MeteredStore.Kind.HEAD);
      long coldPages = s.gets(MeteredStore.Kind.PAGE);
      long coldSeg = s.gets(MeteredStore.Kind.SEGMENT);
      s.reset();
      p.fetch(lsnCold + 1).orElseThrow();
      long warmSame = s.gets();
      s.reset();
      p.fetch(seg * perSegment + perSegment - 2).orElseThrow();
      long warmOther = s.gets();
      reader.close();
      long target = 1 + levels + 2;
      boolean met = coldGets <= target && warmOther <= 1;
      out.put("segments", segments);
      out.put("records_per_segment", perSegment);
      out.put("stored_segment_bytes", storedSize);
      out.put("catalog_levels_below_head", levels);
      out.put("cold_gets", coldGets);
      out.put("cold_head_gets", coldHead);
      out.put("cold_page_gets", coldPages);
      out.put("cold_segment_gets", coldSeg);
      out.put("cold_requests", cold);
      out.put("target_cold_gets", target);
      out.put("warm_same_block_gets", warmSame);
      out.put("warm_other_block_gets", warmOther);
      r.line("| " + label + ": " + segments + " × " + perSegment + " records | " + storedSize / 1024 + " KiB | "
          + coldGets + " | " + coldHead + " | " + coldPages + " | " + coldSeg + " | ≤ " + target + " | " + warmSame
          + " | " + warmOther + " | " + (met ? "yes" : "**no**") + " |");
      r.check("cold point read ≤ head + catalog levels + one tail read + one block, " + label + " (" + target
          + " GETs here)", coldGets + " GETs (" + coldHead + " head, " + coldPages + " pages, " + coldSeg
          + " segment)", coldGets <= target);
      r.check("warm point read ≤ 1 GET, " + label, warmOther + " (other block), " + warmSame + " (same block)",
          warmOther <= 1);
    }
    return out;
  }

  // --- P6 ---------------------------------------------------------------------------------------

  Result p6() throws Exception {
    Result r = new Result("P6", "P6 end-to-end tail latency");
    int n = smoke ? 50 : 2000;
    MemoryObjectStore mem = new MemoryObjectStore();
    double[][] same;
    try (Objlog log = Objlog.open(mem, "bench/p6")) {
      WriterOptions o = WriterOptions.builder().batch(Duration.ofMillis(1), 64 * MiB, 16_384).build();
      try (PartitionWriter w = log.openWriter(0, o); Watch watch = log.reader().watch(0)) {
        w.flush();
        same = tail(w, watch, n, 2);
      }
    }
    double[] c2l = same[0].clone();
    double[] a2l = same[1].clone();
    Arrays.sort(c2l);
    Arrays.sort(a2l);
    double p50 = Data.percentile(c2l, 50);
    double p99 = Data.percentile(c2l, 99);
    r.line("Same JVM: memory store, writer with 1 ms batches, one record every 2 ms (" + n + " records), a "
        + "`Watch` + `Tailer` of the same log on another thread. commit = the record's `committed()` "
        + "future completing; listener = `tailer.next()` returning it.");
    r.line("");
    r.line("| path | p50 | p99 | max | target | met? |");
    r.line("|---|---|---|---|---|---|");
    r.line("| same JVM, commit → listener | " + ms(p50) + " | " + ms(p99) + " | " + ms(c2l[c2l.length - 1])
        + " | ≤ 5 ms p99 | " + (p99 <= 5 ? "yes" : "**no**") + " |");
    r.line("| same JVM, append → listener (incl. 1 ms batch) | " + ms(Data.percentile(a2l, 50)) + " | "
        + ms(Data.percentile(a2l, 99)) + " | " + ms(a2l[a2l.length - 1]) + " | | |");
    r.check("same-JVM publish → listener ≤ 5 ms p99 (commit → tailer.next)", "p99 " + ms(p99), p99 <= 5);
    r.put("same_jvm", Map.of("records", n, "commit_to_listener_p50_ms", round(p50, 3),
        "commit_to_listener_p99_ms", round(p99, 3), "append_to_listener_p50_ms", round(Data.percentile(a2l, 50), 3),
        "append_to_listener_p99_ms", round(Data.percentile(a2l, 99), 3)));

    // another process: a child JVM writes to a filesystem store; this JVM tails it through RTT
    int rtt = smoke ? 2 : 20;
    Duration poll = Duration.ofMillis(smoke ? 50 : 200);
    // the format's floor across processes (issue 23): the head poll that notices a new segment, then
    // two store round trips in sequence (the head GET, the segment GET), plus 10 ms for the rest
    double limit = poll.toMillis() + 2 * rtt + 10;
    List<Map<String, Object>> others = new ArrayList<>();
    double op99 = 0;
    double op50 = 0;
    List<String> otherP99 = new ArrayList<>();
    List<Integer> gaps = new ArrayList<>();
    boolean otherMet = true;
    for (int gap : smoke ? new int[] {20} : new int[] {50, 250}) {
      int m = smoke ? 10 : gap == 50 ? 200 : 60;
      gaps.add(gap);
      double[] oc = otherProcess(m, gap, rtt, poll);
      Arrays.sort(oc);
      double q50 = Data.percentile(oc, 50);
      double q99 = Data.percentile(oc, 99);
      if (gap == (smoke ? 20 : 250)) {
        op50 = q50;
        op99 = q99;
      }
      r.line("| other process (child JVM writes to a filesystem store; reader RTT " + rtt + " ms, poll "
          + poll.toMillis() + " ms), one segment every " + gap + " ms, commit → listener | " + ms(q50) + " | "
          + ms(q99) + " | " + ms(oc[oc.length - 1]) + " | ≤ poll + 2 RTT + 10 ms = " + ms(limit) + " | "
          + (q99 <= limit ? "yes" : "**no**") + " |");
      r.check("separate process ≤ poll interval + 2 store round trips + 10 ms (p99), a segment every " + gap + " ms",
          "p99 " + ms(q99) + " vs " + ms(limit), q99 <= limit);
      otherP99.add(ms(q99));
      otherMet &= q99 <= limit;
      others.add(Map.of("records", m, "gap_ms", gap, "rtt_ms", rtt, "poll_ms", poll.toMillis(),
          "commit_to_listener_p50_ms", round(q50, 3), "commit_to_listener_p99_ms", round(q99, 3),
          "limit_ms", limit));
    }
    r.put("other_process", others);
    r.summary("same JVM commit → listener ≤ 5 ms p99", ms(p99), p99 <= 5);
    r.summary("other process ≤ poll + 2 store round trips + 10 ms p99 (a segment every "
        + gaps.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(" / ")) + " ms)",
        String.join(" / ", otherP99) + " vs " + ms(limit) + " (poll " + poll.toMillis() + " ms, RTT " + rtt + " ms)",
        otherMet);
    r.line("");
    r.line("Other process: a child JVM (`TailWriterProcess`) opens the writer on a `FilesystemObjectStore` "
        + "in a temp directory and appends one 256 B record every gap (1 ms batches, so each record is its "
        + "own segment), printing each record's commit time (wall clock, µs); this JVM opens its own log "
        + "on the same directory behind a `FaultInjectingObjectStore` adding RTT to every request, and "
        + "tails it with a `Watch` polling the head every poll interval. commit → listener = the child's "
        + "commit time to `tailer.next()` returning the record here. A new segment costs the tailer the "
        + "conditional head GET that notices it, then the catalog page as needed and the segment (one "
        + "GET for a small segment), each one RTT in sequence. The target is that floor of the format "
        + "(issue 23): poll interval + 2 store round trips (the head GET that notices the segment, then the "
        + "segment GET) + 10 ms for the rest (the child's commit notice, decoding, scheduling); the issue's "
        + "first target, poll + one RTT, is below what one head poll followed by a segment read can do.");
    Charts.bars(imgDir.resolve("p6-tail.png"), "P6 commit → listener latency vs target", "ms",
        List.of("same JVM", "other process (slow rate)"),
        ordered("p50", List.of(round(p50, 2), round(op50, 2)),
            "p99", List.of(round(p99, 2), round(op99, 2)), "target", List.of(5.0, limit)));
    r.line("");
    r.line(context.img(r, "p6-tail.png"));
    return r;
  }

  /**
   * P6 across processes: starts {@link TailWriterProcess} in a child JVM and tails its stream here
   * through a latency decorator; returns each record's commit (child) → {@code tailer.next()} ms.
   */
  private double[] otherProcess(int m, int gapMs, int rttMs, Duration poll) throws Exception {
    Path dir = Files.createTempDirectory("objlog-p6-");
    String stream = "bench/p6x";
    Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), TailWriterProcess.class.getName(), dir.toString(), stream,
        Integer.toString(m), Integer.toString(gapMs))
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try {
      BufferedReader lines = new BufferedReader(
          new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      String ready = lines.readLine();
      if (ready == null || !ready.startsWith("ready ")) {
        throw new IllegalStateException("the writer process did not start: " + ready);
      }
      long start = Long.parseLong(ready.substring(6));
      long[] committedUs = new long[m];
      long[] seenUs = new long[m];
      FaultInjectingObjectStore remote = FaultInjectingObjectStore.builder(FilesystemObjectStore.open(dir))
          .latency(Duration.ofMillis(rttMs), Duration.ZERO).build();
      try (Objlog rlog = Objlog.open(remote, stream);
          var reader = rlog.newReader(ReaderOptions.builder().pollInterval(poll).build());
          Watch watch = reader.watch(0);
          Tailer tailer = watch.tail(0, start, 1000)) {
        child.getOutputStream().write("go\n".getBytes(StandardCharsets.UTF_8));
        child.getOutputStream().flush();
        Thread collector = new Thread(() -> {
          try {
            for (String line; (line = lines.readLine()) != null; ) {
              String[] f = line.split(" ");
              if (f[0].equals("c")) {
                committedUs[(int) (Long.parseLong(f[1]) - start)] = Long.parseLong(f[2]);
              }
            }
          } catch (IOException e) {
            // the child is gone; missing commit times fail below
          }
        });
        collector.start();
        int got = 0;
        while (got < m) {
          ReadResult rr = tailer.next(Duration.ofSeconds(30));
          long now = TailWriterProcess.micros();
          if (rr.isEmpty()) {
            throw new IllegalStateException("the tailer received " + got + " of " + m + " records");
          }
          for (var rec : rr.records()) {
            seenUs[(int) (rec.lsn() - start)] = now;
            got++;
          }
        }
        if (!child.waitFor(60, TimeUnit.SECONDS) || child.exitValue() != 0) {
          throw new IllegalStateException("the writer process did not finish cleanly");
        }
        collector.join(10_000);
      }
      double[] out = new double[m];
      for (int i = 0; i < m; i++) {
        if (committedUs[i] == 0) {
          throw new IllegalStateException("no commit time for record " + i);
        }
        out[i] = Math.max(0, seenUs[i] - committedUs[i]) / 1e3;
      }
      return out;
    } finally {
      child.destroyForcibly();
      deleteTree(dir);
    }
  }

  /** Appends n records {@code gapMs} apart and returns per-record commit→listener and append→listener ms. */
  private double[][] tail(PartitionWriter w, Watch watch, int n, int gapMs) throws Exception {
    long start = w.state().nextLsn();
    long[] appendNs = new long[n];
    long[] commitNs = new long[n];
    long[] seenNs = new long[n];
    Tailer tailer = watch.tail(0, start, 1000);
    AtomicBoolean failed = new AtomicBoolean();
    Thread consumer = new Thread(() -> {
      int got = 0;
      try {
        while (got < n) {
          ReadResult rr = tailer.next(Duration.ofSeconds(10));
          long now = System.nanoTime();
          if (rr.isEmpty()) {
            failed.set(true);
            return;
          }
          for (var rec : rr.records()) {
            seenNs[(int) (rec.lsn() - start)] = now;
            got++;
          }
        }
      } catch (Exception e) {
        failed.set(true);
      }
    });
    consumer.start();
    for (int i = 0; i < n; i++) {
      int k = i;
      appendNs[i] = System.nanoTime();
      AppendResult ar = w.append(LogRecord.of(1_776_000_000_000L + i, Data.value(pool, i, 256)));
      ar.committed().thenRun(() -> commitNs[k] = System.nanoTime());
      Thread.sleep(gapMs);
    }
    w.flush();
    consumer.join(30_000);
    tailer.close();
    if (failed.get() || consumer.isAlive()) {
      throw new IllegalStateException("the tailer did not receive every record");
    }
    double[] c = new double[n];
    double[] a = new double[n];
    for (int i = 0; i < n; i++) {
      c[i] = Math.max(0, seenNs[i] - commitNs[i]) / 1e6;
      a[i] = (seenNs[i] - appendNs[i]) / 1e6;
    }
    return new double[][] {c, a};
  }

  // --- P7 ---------------------------------------------------------------------------------------

  /** P7 runs each point in a child JVM of its own: see {@link WriterMemoryScenario}. */
  Result p7() throws Exception {
    return new WriterMemoryScenario(smoke, imgDir, context.imgLink()).run();
  }

  static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  // --- Catalog scale ----------------------------------------------------------------------------

  Result catalog() throws Exception {
    Result r = new Result("CATALOG", "Catalog scale: publishing many segments with fan-out 128");
    int total = smoke ? 3000 : 1_000_000;
    int buckets = 10;
    int lookups = 5;
    String stream = "bench/catalog";
    KeyPrefixes prefixes = KeyPrefixes.resolve("bench");
    PartitionKeys keys = PartitionKeys.of(prefixes, stream, 0);
    CatalogIdentity identity = new CatalogIdentity(0, Key256.of(StreamIds.streamKey(stream)),
        Key256.of(prefixes.dataRootKey()));
    MemoryObjectStore mem = new MemoryObjectStore();
    MeteredStore store = new MeteredStore(mem);
    CatalogOptions options = CatalogOptions.builder().limits(128, 128).build();
    PartitionCatalog catalog = new CatalogStore(store, options).partition(keys, identity);
    byte[] wid = new byte[16];
    Arrays.fill(wid, (byte) 7);
    FencedSession session = catalog.takeover(Id128.of(wid));
    long epoch = session.writerEpoch();
    Id128 writer = session.writerId();
    int per = total / buckets;
    double[] nanos = new double[per];
    List<Map<String, Object>> rows = new ArrayList<>();
    double[] xs = new double[buckets];
    double[] meanUs = new double[buckets];
    double[] p99Us = new double[buckets];
    double[] headKb = new double[buckets];
    double[] lookupGets = new double[buckets];
    SplittableRandom random = new SplittableRandom(1);
    long t0all = System.nanoTime();
    r.line("| segments published | publish mean | publish p99 | head size | catalog pages | lookup GETs (cold, max of "
        + lookups + ") |");
    r.line("|---|---|---|---|---|---|");
    int maxGets = 0;
    for (int bucket = 0; bucket < buckets; bucket++) {
      for (int k = 0; k < per; k++) {
        long i = (long) bucket * per + k;
        long base = i * 10;
        LeafEntry e = new LeafEntry(base, base + 9, 1_776_000_000_000L + i, 1_776_000_000_000L + i, 10, 1,
            40_000 + (i & 0xff), 39_000, 128, CatalogFormat.CODEC_ZSTD, HashAlgorithm.XXH64.id(),
            0x0102030405060708L + i, 0x1112131415161718L + i, epoch,
            Id128.of(ByteBuffer.allocate(16).putLong(0x5e65e65e65e6L).putLong(i + 1).array()), writer);
        long t0 = System.nanoTime();
        session.publish(List.of(e));
        nanos[k] = System.nanoTime() - t0;
      }
      long published = (long) (bucket + 1) * per;
      double[] s = nanos.clone();
      Arrays.sort(s);
      double mean = Arrays.stream(nanos).average().orElse(0) / 1000;
      double p99 = Data.percentile(s, 99) / 1000;
      long headSize = mem.head(keys.head()).orElseThrow().size();
      long pages = store.count("PUT_IF_ABSENT", MeteredStore.Kind.PAGE);
      // cold lookups: a fresh catalog store (empty caches) per lookup
      int worst = 0;
      for (int l = 0; l < lookups; l++) {
        MeteredStore cold = new MeteredStore(mem);
        PartitionCatalog c = new CatalogStore(cold, options).partition(keys, identity);
        HeadSnapshot h = c.loadHead().orElseThrow();
        long lsn = random.nextLong(published * 10);
        LeafEntry found = c.findSegment(h.head(), lsn).orElseThrow();
        if (!found.contains(lsn)) {
          throw new IllegalStateException("lookup of " + lsn + " found " + found);
        }
        worst = Math.max(worst, (int) cold.gets());
      }
      maxGets = Math.max(maxGets, worst);
      xs[bucket] = published;
      meanUs[bucket] = mean;
      p99Us[bucket] = p99;
      headKb[bucket] = headSize / 1024.0;
      lookupGets[bucket] = worst;
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("segments", published);
      row.put("publish_mean_us", round(mean, 2));
      row.put("publish_p99_us", round(p99, 2));
      row.put("head_bytes", headSize);
      row.put("pages_written", pages);
      row.put("lookup_gets_max", worst);
      rows.add(row);
      r.line("| " + published + " | " + String.format("%.1f µs", mean) + " | " + String.format("%.1f µs", p99)
          + " | " + headSize + " B | " + pages + " | " + worst + " |");
      System.out.printf("  catalog: %d segments, publish mean %.1f us, head %d B, lookup GETs %d%n",
          published, mean, headSize, worst);
    }
    double secs = (System.nanoTime() - t0all) / 1e9;
    double growth = meanUs[buckets - 1] / meanUs[1];
    long maxHead = Arrays.stream(headKb).mapToLong(x -> (long) (x * 1024)).max().orElse(0);
    long bound = CatalogFormat.headSize(128, 128, 128, 128);
    r.put("segments", total).put("fan_out", 128).put("seconds", round(secs, 1)).put("rows", rows)
        .put("head_bytes_bound_3_levels", bound).put("publish_mean_growth_last_vs_second_bucket", round(growth, 3));
    r.line("");
    r.line("Published " + total + " single-segment groups through `FencedSession.publish` (the writer's "
        + "commit path without segment uploads) on the memory store in " + round(secs, 1) + " s. Head "
        + "size bound with a full active leaf and three full index sections: " + bound + " B. Lookups: a "
        + "fresh `CatalogStore` (cold page cache), `loadHead()` + `findSegment(head, random LSN)`; GETs "
        + "include the head.");
    r.check("head size stays bounded", "max " + maxHead + " B (bound " + bound + " B for 3 levels)", maxHead <= bound);
    r.check("lookup GETs ≤ 4 (cold, including the head)", "max " + maxGets, maxGets <= 4);
    r.check("publish time does not grow with history", String.format("last bucket / second bucket mean = %.2f",
        growth), growth <= 1.5);
    Charts.lines(imgDir.resolve("catalog-scale.png"), "Catalog: publish time and head size vs history (fan-out 128)",
        "segments published", "µs / KiB / GETs",
        ordered("publish mean (µs)", new double[][] {xs, meanUs},
            "publish p99 (µs)", new double[][] {xs, p99Us}, "head size (KiB)", new double[][] {xs, headKb},
            "cold lookup GETs", new double[][] {xs, lookupGets}), false);
    r.line("");
    r.line(context.img(r, "catalog-scale.png"));
    return r;
  }
}
