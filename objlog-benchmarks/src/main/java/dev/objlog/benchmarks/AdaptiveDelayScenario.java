package dev.objlog.benchmarks;

import static dev.objlog.benchmarks.Data.MB;
import static dev.objlog.benchmarks.Data.MiB;
import static dev.objlog.benchmarks.Data.round;

import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.PartitionWriter;
import dev.objlog.WriterOptions;
import dev.objlog.store.fault.FaultInjectingObjectStore;
import dev.objlog.store.memory.MemoryObjectStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * ADAPTIVE (issue 23): the adaptive batch delay against the fixed 10 ms one, at 0, 5 and 50 ms
 * of injected RTT: append → commit latency and S3 requests per GiB at a fixed append rate, and
 * throughput and requests per GiB when one thread appends as fast as it can.
 */
final class AdaptiveDelayScenario {
  private static final int[] RTTS = {0, 5, 50};
  private static final long BANDWIDTH = 50_000_000L;
  private static final long PART = 8 * MiB;
  private static final int VALUE = 1024;
  private static final long RECORD = 1040;

  /** One writer configuration under test. */
  private record Config(String name, WriterOptions.AdaptiveDelay adaptive) {}

  private static final List<Config> CONFIGS = List.of(
      new Config("fixed 10 ms (default)", WriterOptions.AdaptiveDelay.DISABLED),
      new Config("adaptive ×4, 1–250 ms", new WriterOptions.AdaptiveDelay(true, Duration.ofMillis(1),
          Duration.ofMillis(250), 4.0)),
      new Config("adaptive ×1, 1–250 ms", new WriterOptions.AdaptiveDelay(true, Duration.ofMillis(1),
          Duration.ofMillis(250), 1.0)));

  private final boolean smoke;
  private final byte[] pool;

  AdaptiveDelayScenario(ScenarioContext context) {
    this.smoke = context.smoke();
    this.pool = context.pool();
  }

  /** What one run measured. */
  private record Run(double p50Ms, double p99Ms, double mbs, long segments, double requestsPerGib) {}

  Result run() throws Exception {
    Result r = new Result("ADAPTIVE", "ADAPTIVE adaptive batch delay vs the fixed 10 ms: latency and requests per GiB");
    int rate = smoke ? 500 : 1_000;
    double secs = smoke ? 0.3 : 3;
    long total = smoke ? 2 * MiB : 48 * MiB;
    int rounds = smoke ? 1 : 2;
    r.line("Store: `FaultInjectingObjectStore` over memory, fixed latency = RTT per request, bandwidth cap "
        + BANDWIDTH / 1_000_000 + " MB/s per request, counted by `MeteredStore`. Writer defaults (≤ 16 384 "
        + "records or 64 MiB a batch, 4 segments in flight, zstd 3), 1 KiB records, one thread. Paced: " + rate
        + " records/s for " + secs + " s; latency from each record's scheduled send time to its commit future, "
        + "over the last two thirds of the records (the first third lets the averages settle). Flat out: "
        + total / MiB + " MiB as fast as one thread appends; MB/s from the first append to the final `flush()` "
        + "returning (P3's whole-run figure: two or three 16 MiB batches are too few for its steady-state window). Requests per GiB: S3 PUT-class requests of the whole run (segments as P4's model, "
        + "page PUTs, head swaps) scaled to 1 GiB of record bytes. Median of " + rounds + " rounds, configurations "
        + "alternating order.");
    r.line("");
    r.line("| RTT | configuration | paced p50 | paced p99 | paced segments | paced requests / GiB | flat-out MB/s | flat-out requests / GiB |");
    r.line("|---|---|---|---|---|---|---|---|");
    List<Map<String, Object>> rows = new ArrayList<>();
    Map<Integer, Run[]> pacedByRtt = new LinkedHashMap<>();
    Map<Integer, Run[]> flatByRtt = new LinkedHashMap<>();
    for (int rtt : RTTS) {
      int n = CONFIGS.size();
      Run[][] paced = new Run[n][rounds];
      Run[][] flat = new Run[n][rounds];
      for (int k = 0; k < rounds; k++) {
        for (int j = 0; j < n; j++) {
          int c = k % 2 == 0 ? j : n - 1 - j;
          paced[c][k] = paced(rtt, CONFIGS.get(c), rate, secs);
          flat[c][k] = flatOut(rtt, CONFIGS.get(c), total);
        }
      }
      Run[] pm = new Run[n];
      Run[] fm = new Run[n];
      for (int c = 0; c < n; c++) {
        pm[c] = median(paced[c]);
        fm[c] = median(flat[c]);
        r.line("| " + rtt + " ms | " + CONFIGS.get(c).name() + " | " + round(pm[c].p50Ms(), 1) + " ms | "
            + round(pm[c].p99Ms(), 1) + " ms | " + pm[c].segments() + " | " + round(pm[c].requestsPerGib(), 0)
            + " | " + round(fm[c].mbs(), 1) + " | " + round(fm[c].requestsPerGib(), 0) + " |");
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("rtt_ms", rtt);
        row.put("config", CONFIGS.get(c).name());
        row.put("paced_p50_ms", round(pm[c].p50Ms(), 2));
        row.put("paced_p99_ms", round(pm[c].p99Ms(), 2));
        row.put("paced_segments", pm[c].segments());
        row.put("paced_requests_per_gib", round(pm[c].requestsPerGib(), 1));
        row.put("flat_mb_s", round(fm[c].mbs(), 1));
        row.put("flat_requests_per_gib", round(fm[c].requestsPerGib(), 1));
        row.put("flat_rounds_mb_s", Arrays.stream(flat[c]).map(x -> round(x.mbs(), 1)).toList());
        rows.add(row);
      }
      pacedByRtt.put(rtt, pm);
      flatByRtt.put(rtt, fm);
    }
    r.put("rows", rows);
    for (int rtt : RTTS) {
      Run[] p = pacedByRtt.get(rtt);
      Run[] f = flatByRtt.get(rtt);
      StringBuilder figure = new StringBuilder();
      for (int c = 0; c < CONFIGS.size(); c++) {
        figure.append(c == 0 ? "" : "; ").append(CONFIGS.get(c).name()).append(": p50 ").append(round(p[c].p50Ms(), 1))
            .append(" ms, ").append(round(p[c].requestsPerGib(), 0)).append(" req/GiB, flat out ")
            .append(round(f[c].mbs(), 1)).append(" MB/s");
      }
      r.check("paced latency, requests/GiB and flat-out MB/s at " + rtt + " ms RTT", figure.toString(), null);
      r.summary("adaptive delay vs fixed 10 ms at " + rtt + " ms RTT (reported)", figure.toString(), null);
    }
    return r;
  }

  private static Run median(Run[] runs) {
    return new Run(Data.median(Arrays.stream(runs).mapToDouble(Run::p50Ms).toArray()),
        Data.median(Arrays.stream(runs).mapToDouble(Run::p99Ms).toArray()),
        Data.median(Arrays.stream(runs).mapToDouble(Run::mbs).toArray()),
        Math.round(Data.median(Arrays.stream(runs).mapToDouble(Run::segments).toArray())),
        Data.median(Arrays.stream(runs).mapToDouble(Run::requestsPerGib).toArray()));
  }

  private static MeteredStore store(int rtt) {
    return new MeteredStore(FaultInjectingObjectStore.builder(new MemoryObjectStore())
        .latency(Duration.ofMillis(rtt), Duration.ZERO).bandwidth(BANDWIDTH).build());
  }

  private static WriterOptions options(Config c) {
    return WriterOptions.builder().adaptiveDelay(c.adaptive()).build();
  }

  private static double requestsPerGib(MeteredStore s, long recordBytes) {
    long puts = s.s3SegmentPuts(PART) + s.count("PUT_IF_ABSENT", MeteredStore.Kind.PAGE)
        + s.count("CAS", MeteredStore.Kind.HEAD);
    return puts * (double) (1L << 30) / recordBytes;
  }

  private Run paced(int rtt, Config c, int rate, double secs) throws Exception {
    MeteredStore s = store(rtt);
    int n = (int) (rate * secs);
    long[] due = new long[n];
    long[] done = new long[n];
    try (Objlog log = Objlog.open(s, "bench/adaptive"); PartitionWriter w = log.openWriter(0, options(c))) {
      w.flush();
      s.reset();
      long t0 = System.nanoTime() + 1_000_000;
      for (int i = 0; i < n; i++) {
        due[i] = t0 + (long) (i * 1e9 / rate);
        for (long wait; (wait = due[i] - System.nanoTime()) > 0; ) {
          LockSupport.parkNanos(wait);
        }
        int index = i;
        w.append(LogRecord.of(1_776_000_000_000L + i, Data.value(pool, i, VALUE)))
            .committed().thenRun(() -> done[index] = System.nanoTime());
      }
      w.flush();
    }
    double[] lat = new double[n - n / 3];
    for (int i = n / 3; i < n; i++) {
      lat[i - n / 3] = (done[i] - due[i]) / 1e6;
    }
    Arrays.sort(lat);
    return new Run(Data.percentile(lat, 50), Data.percentile(lat, 99), n * RECORD / secs / MB,
        s.segmentSizes().size(), requestsPerGib(s, n * RECORD));
  }

  private Run flatOut(int rtt, Config c, long total) throws Exception {
    MeteredStore s = store(rtt);
    long records = total / RECORD;
    long t0;
    long t1;
    try (Objlog log = Objlog.open(s, "bench/adaptive"); PartitionWriter w = log.openWriter(0, options(c))) {
      w.flush();
      s.reset();
      t0 = System.nanoTime();
      for (long i = 0; i < records; i++) {
        w.append(LogRecord.of(1_776_000_000_000L + i / 64, Data.value(pool, i, VALUE)));
      }
      w.flush();
      t1 = System.nanoTime();
    }
    double mbs = records * RECORD / ((t1 - t0) / 1e9) / MB;
    return new Run(Double.NaN, Double.NaN, mbs, s.segmentSizes().size(), requestsPerGib(s, records * RECORD));
  }
}
