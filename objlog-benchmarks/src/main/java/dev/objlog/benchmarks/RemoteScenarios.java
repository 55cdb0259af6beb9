package dev.objlog.benchmarks;

import static dev.objlog.benchmarks.Data.MiB;
import static dev.objlog.benchmarks.Data.round;
import static dev.objlog.benchmarks.ScenarioContext.ms;

import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.PartitionWriter;
import dev.objlog.benchmarks.ConsumerBench.Bean0;
import dev.objlog.benchmarks.ConsumerBench.ObjlogRecord;
import dev.objlog.read.ReadRecord;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import dev.objlog.store.memory.MemoryObjectStore;
import dev.objlog.store.s3.S3ObjectStore;
import dev.objlog.store.s3.S3ProxyServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Issue 24 on real servers and processes: requests and dollars per GiB on S3Proxy (a real S3 HTTP
 * server in this JVM) next to the memory store (S3COST), and P10 with the writer in another
 * process (P10X).
 */
final class RemoteScenarios {
  /** S3 Standard request list prices, us-east-1, USD per request (see {@link #s3Cost}); P4 uses them too. */
  static final double PUT_CLASS = 0.005 / 1000;
  static final double GET_CLASS = 0.0004 / 1000;

  /** Extra JVM options for P10X's writer process (space-separated), to profile it; none by default. */
  static final String CHILD_JVM_ARGS_PROPERTY = "objlog.bench.p10x.childJvmArgs";

  private final boolean smoke;
  private final ScenarioContext context;
  private final byte[] pool;

  RemoteScenarios(ScenarioContext context) {
    this.context = context;
    this.smoke = context.smoke();
    this.pool = context.pool();
  }

  // --- S3COST -----------------------------------------------------------------------------------

  /** Counts every HTTP request the SDK sends (retries included), by S3 operation name. */
  static final class RequestCounter implements ExecutionInterceptor {
    final Map<String, AtomicLong> byOperation = new ConcurrentHashMap<>();

    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
      String op = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
      int status = context.httpResponse().statusCode();
      // an answer other than 2xx (a lost condition, a retried error) is its own line: it is still billed
      String key = (op == null ? "?" : op) + (status / 100 == 2 ? "" : " (" + status + ")");
      byOperation.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
    }

    Map<String, Long> snapshot() {
      Map<String, Long> m = new TreeMap<>();
      byOperation.forEach((k, v) -> m.put(k, v.get()));
      return m;
    }

    void reset() {
      byOperation.clear();
    }
  }

  /** S3's price class of an operation: DELETE is free, PUT/COPY/POST/LIST cost the PUT rate, the rest GET's. */
  static double price(String operation) {
    if (operation.startsWith("Delete")) {
      return 0;
    }
    if (operation.startsWith("Put") || operation.startsWith("List") || operation.startsWith("Copy")
        || operation.equals("CreateMultipartUpload") || operation.equals("UploadPart")
        || operation.equals("CompleteMultipartUpload")) {
      return PUT_CLASS;
    }
    return GET_CLASS;
  }

  Result s3Cost() throws Exception {
    Result r = new Result("S3COST", "Requests and dollars per GiB on S3Proxy (real S3 HTTP) next to the memory store");
    long written = smoke ? 2 * MiB : 256 * MiB;
    int valueBytes = 1024;
    long records = written / valueBytes;
    double perGiB = (double) (1L << 30) / (records * valueBytes);
    Map<String, Long> s3Write;
    Map<String, Long> s3Read;
    Map<String, Long> s3EngineWrite;
    Map<String, Long> s3EngineRead;
    try (S3ProxyServer server = S3ProxyServer.start(true)) {
      server.createBucket("bench");
      RequestCounter counter = new RequestCounter();
      S3Client client = S3Client.builder().endpointOverride(server.endpoint).region(Region.US_EAST_1)
          .forcePathStyle(true)
          .credentialsProvider(StaticCredentialsProvider.create(
              AwsBasicCredentials.create(S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY)))
          .overrideConfiguration(c -> c.addExecutionInterceptor(counter)).build();
      try (client; ObjectStore s3 = S3ObjectStore.builder().bucket("bench").client(client).build()) {
        // the engine's requests on the same store too, by operation and object kind, to tell the
        // adapter's HTTP requests apart from what the engine asked for
        MeteredStore metered = new MeteredStore(s3);
        Runnable reset = () -> {
          counter.reset();
          metered.reset();
        };
        s3Write = writeThenCount(metered, records, valueBytes, reset, counter::snapshot);
        s3EngineWrite = metered.snapshot();
        s3Read = replayThenCount(metered, records, reset, counter::snapshot);
        s3EngineRead = metered.snapshot();
      }
    }
    MeteredStore mem = new MeteredStore(new MemoryObjectStore());
    Map<String, Long> memWrite = writeThenCount(mem, records, valueBytes, mem::reset, mem::snapshot);
    Map<String, Long> memRead = replayThenCount(mem, records, mem::reset, mem::snapshot);

    r.line("One writer, one partition, " + written / MiB + " MiB of 1 KiB text-like values (about 3× "
        + "compressible) with the default writer options (10 ms / 8 MiB batches, zstd 3), `flush()`; then a new "
        + "`Objlog` on the same store replays the partition from LSN 0 (cold caches). Counted per GiB of value "
        + "bytes (× " + round(perGiB, 2) + "). **S3Proxy**: the engine's `S3ObjectStore` (AWS SDK v2, path "
        + "style) against an in-process S3Proxy 4.1.0 (transient backend, atomic conditional writes: the test "
        + "support's `S3ProxyServer`), every HTTP request the SDK sends counted by S3 operation and, "
        + "when not 2xx, status (an `ExecutionInterceptor`, retries included); the \"engine requests\" lines count "
        + "what the engine asked of the same store (`MeteredStore` around it). **Memory store**: the same workload on `MemoryObjectStore` "
        + "behind the harness's `MeteredStore`, counted by store operation and object kind (what the engine "
        + "asks for; the S3 adapter turns a large upload into a multipart upload, and a create-only or "
        + "compare-and-swap write into a conditional PutObject). Prices: **S3 Standard, us-east-1 list prices "
        + "as used since P4 (not re-checked online on this run's date, " + java.time.LocalDate.now() + ")**: "
        + "$0.005 per 1 000 PUT, COPY, POST and LIST requests, $0.0004 per 1 000 GET, HEAD and other requests, "
        + "DELETE free; storage ($0.023 per GB-month) and transfer (free within the region) not included.");
    r.line("");
    r.line("| store | phase | requests by type, per GiB | requests / GiB | $ / GiB |");
    r.line("|---|---|---|---|---|");
    double w = costLine(r, "S3Proxy (HTTP)", "write", s3Write, perGiB, true);
    double rd = costLine(r, "S3Proxy (HTTP)", "replay", s3Read, perGiB, true);
    costLine(r, "S3Proxy (engine requests)", "write", s3EngineWrite, perGiB, false);
    costLine(r, "S3Proxy (engine requests)", "replay", s3EngineRead, perGiB, false);
    costLine(r, "memory (engine requests)", "write", memWrite, perGiB, false);
    costLine(r, "memory (engine requests)", "replay", memRead, perGiB, false);
    long wReq = Math.round(s3Write.values().stream().mapToLong(Long::longValue).sum() * perGiB);
    long rReq = Math.round(s3Read.values().stream().mapToLong(Long::longValue).sum() * perGiB);
    r.put("bytes_written", records * valueBytes).put("per_gib_factor", round(perGiB, 4))
        .put("s3proxy_write", s3Write).put("s3proxy_replay", s3Read)
        .put("s3proxy_engine_write", s3EngineWrite).put("s3proxy_engine_replay", s3EngineRead).put("memory_write", memWrite)
        .put("memory_replay", memRead).put("usd_per_gib_write", round(w, 6)).put("usd_per_gib_replay", round(rd, 6))
        .put("prices", "S3 Standard us-east-1: $0.005/1000 PUT/COPY/POST/LIST, $0.0004/1000 GET/HEAD/other, DELETE free");
    r.check("requests and $ per GiB written on S3 (S3Proxy HTTP, by type)",
        wReq + " requests, " + String.format("$%.5f", w) + " / GiB", null);
    r.check("requests and $ per GiB read (replay) on S3 (S3Proxy HTTP, by type)",
        rReq + " requests, " + String.format("$%.5f", rd) + " / GiB", null);
    r.summary("requests and $ per GiB on S3Proxy, written / replayed (1 KiB records, default writer; S3 Standard list prices)",
        String.format("%d / %d requests, $%.5f / $%.5f per GiB", wReq, rReq, w, rd), null);
    return r;
  }

  /** One table line; returns $ / GiB (S3 prices; for the memory store the engine's requests at the same classes). */
  private static double costLine(Result r, String store, String phase, Map<String, Long> counts, double perGiB,
      boolean s3) {
    StringBuilder types = new StringBuilder();
    double dollars = 0;
    long total = 0;
    for (Map.Entry<String, Long> e : counts.entrySet()) {
      types.append(types.length() == 0 ? "" : ", ").append(e.getKey()).append(' ')
          .append(round(e.getValue() * perGiB, 1));
      total += e.getValue();
      if (s3) {
        dollars += e.getValue() * perGiB * price(e.getKey());
      }
    }
    r.line("| " + store + " | " + phase + " | " + types + " | " + round(total * perGiB, 1) + " | "
        + (s3 ? String.format("$%.5f", dollars) : "— (see the S3 line)") + " |");
    return dollars;
  }

  private Map<String, Long> writeThenCount(ObjectStore store, long records, int valueBytes, Runnable reset,
      java.util.function.Supplier<Map<String, Long>> snapshot) {
    try (Objlog log = Objlog.open(store, "bench/s3cost"); PartitionWriter w = log.openWriter(0)) {
      w.flush();
      reset.run();
      for (long i = 0; i < records; i++) {
        w.append(LogRecord.of(1_776_000_000_000L + i / 64, Data.value(pool, i, valueBytes)));
      }
      w.flush();
      return snapshot.get();
    }
  }

  private static Map<String, Long> replayThenCount(ObjectStore store, long records, Runnable reset,
      java.util.function.Supplier<Map<String, Long>> snapshot) {
    reset.run();
    long n;
    try (Objlog log = Objlog.open(store, "bench/s3cost"); Stream<ReadRecord> s = log.reader().partition(0).replay(0)) {
      n = s.count();
    }
    if (n != records) {
      throw new IllegalStateException("replayed " + n + " of " + records + " records");
    }
    return snapshot.get();
  }

  // --- P10X -------------------------------------------------------------------------------------

  /**
   * P10 with the writer in another process: a child JVM ({@link ScheduledWriterProcess}) appends at
   * a fixed rate to a filesystem store; an {@code @ObjlogListener} in this JVM's Spring context
   * sees the records only through its head polls.
   */
  Result p10OtherProcess() throws Exception {
    Result r = new Result("P10X", "P10 across processes: send (child JVM) → @ObjlogListener at a fixed rate");
    int rate = smoke ? 500 : 2_000;
    int warm = smoke ? 100 : 2 * rate;
    int measured = smoke ? 200 : 15 * rate;
    int n = warm + measured;
    int valueBytes = 1024;
    long pollMs = 50;
    Path root = Files.createTempDirectory("objlog-p10x-");
    String stream = "p10x"; // the Spring stream name, which is also its stream id
    Bean0 listener = new ObjlogRecord("p10x-objlog", "p10x", true);
    long[] arrived = new long[n];
    long[] committedMicros = new long[n];
    listener.sink.timeByIndex = arrived;
    listener.sink.arm(n);
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // for profiling the writer, e.g. -Dobjlog.bench.p10x.childJvmArgs=-XX:StartFlightRecording=filename=/tmp/w.jfr
    String childArgs = System.getProperty(CHILD_JVM_ARGS_PROPERTY, "").trim();
    if (!childArgs.isEmpty()) {
      command.addAll(Arrays.asList(childArgs.split("\\s+")));
    }
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), ScheduledWriterProcess.class.getName(),
        root.toString(), stream, Integer.toString(rate), Integer.toString(n), Integer.toString(valueBytes)));
    Process child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    long t0Micros;
    long offsetMicros; // wall clock µs − nanoTime µs in this JVM
    double rttMs;
    try {
      BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      String ready = lines.readLine();
      while (ready != null && ready.startsWith("[")) { // the JVM's own lines (-XX options such as JFR's)
        ready = lines.readLine();
      }
      if (ready == null || !ready.startsWith("ready ")) {
        throw new IllegalStateException("the writer process did not start: " + ready);
      }
      Map<String, Object> props = ListenerScenarios.objlogProperties(root);
      props.put("objlog.streams.p10x.partitions", 1);
      props.put("objlog.listener.poll-interval", pollMs + "ms");
      // the context's Kafka consumer factory needs an address; no Kafka listener runs here, so none is dialled
      props.put("bench.kafka.bootstrap", "127.0.0.1:9");
      try (ConfigurableApplicationContext ctx = ConsumerBench.start(props, g -> ConsumerBench.register(g, listener))) {
        offsetMicros = TailWriterProcess.micros() - System.nanoTime() / 1000;
        child.getOutputStream().write("go\n".getBytes(StandardCharsets.UTF_8));
        child.getOutputStream().flush();
        String t0 = lines.readLine();
        if (t0 == null || !t0.startsWith("t0 ")) {
          throw new IllegalStateException("the writer process did not report its start: " + t0);
        }
        t0Micros = Long.parseLong(t0.substring(3));
        listener.sink.await(5);
        for (String line; (line = lines.readLine()) != null && !line.equals("done"); ) {
          String[] f = line.split(" ");
          if (f[0].equals("c")) {
            committedMicros[Integer.parseInt(f[1])] = Long.parseLong(f[2]);
          }
        }
        if (!child.waitFor(60, TimeUnit.SECONDS) || child.exitValue() != 0) {
          throw new IllegalStateException("the writer process did not finish cleanly");
        }
      }
      rttMs = storeRoundTripMs(root);
    } finally {
      child.destroyForcibly();
      ListenerScenarios.deleteTree(root);
    }
    long gapMicros = 1_000_000L / rate;
    double[] lat = new double[measured];
    double[] toCommit = new double[measured];
    double[] fromCommit = new double[measured];
    for (int i = warm; i < n; i++) {
      long due = t0Micros + (long) i * gapMicros;
      long seen = arrived[i] / 1000 + offsetMicros;
      if (committedMicros[i] == 0) {
        throw new IllegalStateException("no commit time for record " + i);
      }
      lat[i - warm] = (seen - due) / 1e3;
      toCommit[i - warm] = (committedMicros[i] - due) / 1e3;
      fromCommit[i - warm] = (seen - committedMicros[i]) / 1e3;
    }
    Arrays.sort(lat);
    Arrays.sort(toCommit);
    Arrays.sort(fromCommit);
    double p50 = Data.percentile(lat, 50);
    double p99 = Data.percentile(lat, 99);
    double limit = pollMs + 2 * rttMs + 10;
    boolean met = p99 <= limit;
    r.line("A child JVM (`ScheduledWriterProcess`) opens the writer of partition 0 on a `FilesystemObjectStore` in "
        + "a temp directory with the default writer options (as `ObjlogTemplate` uses them: 10 ms batches, zstd 3; "
        + "the filesystem store forces each segment and head to disk before the commit) and appends record i of "
        + valueBytes + " B at its scheduled time t0 + i / " + rate + " s (spinning until then; late appends go at "
        + "once and their delay counts). This JVM runs the Spring Boot context with an `@ObjlogListener` record "
        + "listener on the same directory (objlog's auto-configuration, BATCH checkpoints in the bucket), "
        + "`objlog.listener.poll-interval=" + pollMs + "ms`: it sees the other process's commits only through head "
        + "polls. Latency = listener method call (this JVM's clock) − the record's scheduled send time (the "
        + "child's wall clock; same machine, same clock). " + warm + " warm-up records, then " + measured
        + " measured. Store round trip (RTT) = median of 200 GETs of the head on the same filesystem store, "
        + "measured after the run: " + String.format("%.2f ms", rttMs) + " (a local disk, no network latency "
        + "injected). Target: p99 ≤ poll + 2 RTT + 10 ms = " + String.format("%.1f ms", limit) + ".");
    r.line("");
    r.line("| span | p50 | p90 | p99 | p99.9 | max | target | met? |");
    r.line("|---|---|---|---|---|---|---|---|");
    r.line("| scheduled send → listener method | " + ms(p50) + " | " + ms(Data.percentile(lat, 90)) + " | " + ms(p99)
        + " | " + ms(Data.percentile(lat, 99.9)) + " | " + ms(lat[lat.length - 1]) + " | " + ms(limit) + " | "
        + (met ? "yes" : "**no**") + " |");
    r.line("| of which: scheduled send → committed (child: batch, segment and head written and forced) | "
        + ms(Data.percentile(toCommit, 50)) + " | " + ms(Data.percentile(toCommit, 90)) + " | "
        + ms(Data.percentile(toCommit, 99)) + " | " + ms(Data.percentile(toCommit, 99.9)) + " | "
        + ms(toCommit[toCommit.length - 1]) + " | | |");
    r.line("| of which: committed → listener method (poll wait, head and segment reads, dispatch) | "
        + ms(Data.percentile(fromCommit, 50)) + " | " + ms(Data.percentile(fromCommit, 90)) + " | "
        + ms(Data.percentile(fromCommit, 99)) + " | " + ms(Data.percentile(fromCommit, 99.9)) + " | "
        + ms(fromCommit[fromCommit.length - 1]) + " | | |");
    r.put("send_to_commit_p50_ms", round(Data.percentile(toCommit, 50), 2))
        .put("send_to_commit_p99_ms", round(Data.percentile(toCommit, 99), 2))
        .put("commit_to_listener_p50_ms", round(Data.percentile(fromCommit, 50), 2))
        .put("commit_to_listener_p99_ms", round(Data.percentile(fromCommit, 99), 2));
    String target = "P10X send (other process) → listener p99 at " + rate + "/s ≤ poll + 2 RTT + 10 ms (poll "
        + pollMs + " ms, filesystem RTT " + String.format("%.2f", rttMs) + " ms)";
    r.check(target, String.format("p99 %.1f ms vs %.1f ms", p99, limit), met);
    r.summary(target, String.format("%.1f ms vs %.1f ms (p50 %.1f ms)", p99, limit, p50), met);
    r.put("rate", rate).put("warm", warm).put("measured", measured).put("poll_ms", pollMs)
        .put("rtt_ms", round(rttMs, 3)).put("limit_ms", round(limit, 2)).put("p50_ms", round(p50, 2))
        .put("p99_ms", round(p99, 2)).put("max_ms", round(lat[lat.length - 1], 2));
    double[] ps = {50, 75, 90, 95, 99, 99.9};
    double[] y = Arrays.stream(ps).map(p -> Data.percentile(lat, p)).toArray();
    Map<String, double[][]> series = new LinkedHashMap<>();
    series.put("objlog, writer in another process", new double[][] {ps, y});
    series.put("target", new double[][] {ps, Arrays.stream(ps).map(p -> limit).toArray()});
    Charts.lines(context.imgDir().resolve("p10x-other-process.png"), "P10X send (child JVM) → @ObjlogListener at "
        + rate + " records/s (from scheduled send)", "percentile", "ms", series, false);
    r.line("");
    r.line(context.img(r, "p10x-other-process.png"));
    return r;
  }

  /** Median ms of 200 GETs of the partition's head on a filesystem store at {@code root}. */
  private static double storeRoundTripMs(Path root) throws Exception {
    ObjectStore fs = FilesystemObjectStore.open(root);
    String head = null;
    String after = "";
    while (head == null) {
      dev.objlog.store.ListPage page = fs.list("", after, 1000);
      for (dev.objlog.store.ObjectMetadata m : page.entries()) {
        if (m.key().endsWith("head.plc")) {
          head = m.key();
          break;
        }
      }
      if (!page.hasMore()) {
        break;
      }
      after = page.nextAfterKey();
    }
    if (head == null) {
      throw new IllegalStateException("no catalog head under " + root);
    }
    double[] t = new double[200];
    for (int i = 0; i < t.length; i++) {
      long s = System.nanoTime();
      fs.get(head);
      t[i] = (System.nanoTime() - s) / 1e6;
    }
    return Data.median(t);
  }
}
