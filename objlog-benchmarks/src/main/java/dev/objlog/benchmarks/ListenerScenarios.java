package dev.objlog.benchmarks;

import static dev.objlog.benchmarks.Data.MB;
import static dev.objlog.benchmarks.Data.MiB;
import static dev.objlog.benchmarks.Data.round;

import dev.objlog.benchmarks.ConsumerBench.Bean0;
import dev.objlog.benchmarks.ConsumerBench.KafkaBatch;
import dev.objlog.benchmarks.ConsumerBench.KafkaRecord;
import dev.objlog.benchmarks.ConsumerBench.ObjlogBatch;
import dev.objlog.benchmarks.ConsumerBench.ObjlogRecord;
import dev.objlog.read.ReadRecord;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.ObjlogTemplate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * P9 (issue 24): listener throughput, {@code @ObjlogListener} against {@code @KafkaListener} on the
 * same records in one context, and replay through a listener against the engine's own replay.
 */
final class ListenerScenarios {
  /** The replay log's size in MiB of value bytes: the 1 GiB unless the property says otherwise. */
  static final String REPLAY_MIB_PROPERTY = "objlog.bench.p9.replayMiB";
  static final long REPLAY_MIB_DEFAULT = 1024;
  /** The objlog listeners' checkpoint mode; batch unless the property says otherwise. */
  static final String CHECKPOINT_MODE_PROPERTY = "objlog.bench.checkpointMode";
  /** P9R's objlog.listener.sync-checkpoints; false (background saves) unless the property says otherwise. */
  static final String REPLAY_SYNC_CHECKPOINTS_PROPERTY = "objlog.bench.p9r.syncCheckpoints";

  private static final String[] CHART_NAMES = {"objlog record", "objlog batch", "Kafka record", "Kafka batch",
      "Kafka record (consumer tuned)", "Kafka batch (consumer tuned)"};

  private final boolean smoke;
  private final Path imgDir;
  private final ScenarioContext context;
  private final byte[] pool;

  ListenerScenarios(ScenarioContext context) {
    this.context = context;
    this.smoke = context.smoke();
    this.imgDir = context.imgDir();
    this.pool = context.pool();
  }



  static Map<String, Object> objlogProperties(Path root) {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("objlog.store.type", "filesystem");
    p.put("objlog.store.filesystem.root", root.toString());
    // Kafka's container commits offsets after each poll (AckMode BATCH); the objlog listeners do the
    // same: a checkpoint after each read batch, kept in the bucket (the default on this store)
    // (-Dobjlog.bench.checkpointMode=time and the like measure the lever; not the targets' configuration)
    p.put("objlog.listener.checkpoint-mode", System.getProperty(CHECKPOINT_MODE_PROPERTY, "batch"));
    return p;
  }

  /** Writes {@code n} values to partition 0 of the stream, waiting in chunks; returns value bytes. */
  static long writeObjlog(ObjlogTemplate template, String stream, byte[] pool, long n, int valueBytes) throws Exception {
    List<CompletableFuture<?>> pending = new ArrayList<>();
    for (long i = 0; i < n; i++) {
      pending.add(template.send(stream, 0, Data.value(pool, i, valueBytes)));
      if (pending.size() == 16_384) {
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
        pending.clear();
      }
    }
    CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
    return n * valueBytes;
  }

  // --- P9 listener throughput --------------------------------------------------------------------

  Result p9() throws Exception {
    Result r = new Result("P9", "P9 listener throughput: @ObjlogListener vs @KafkaListener (embedded KRaft), same records, same JVM");
    int valueBytes = 1024;
    int n = smoke ? 2_000 : 65_536;
    int rounds = smoke ? 1 : 4;
    String[] names = {"@ObjlogListener, record", "@ObjlogListener, batch", "@KafkaListener, record",
        "@KafkaListener, batch", "@KafkaListener, record, consumer tuned", "@KafkaListener, batch, consumer tuned"};
    int sides = names.length;
    // round 0 warms up (JIT, connections, page cache) and is not counted
    Bean0[][] beans = new Bean0[rounds + 1][sides];
    for (int k = 0; k <= rounds; k++) {
      beans[k][0] = new ObjlogRecord("p9-objlog-record-" + k, "p9", false);
      beans[k][1] = new ObjlogBatch("p9-objlog-batch-" + k, "p9", false);
      beans[k][2] = new KafkaRecord("p9-kafka-record-" + k, "p9", false);
      beans[k][3] = new KafkaBatch("p9-kafka-batch-" + k, "p9", false);
      beans[k][4] = new KafkaRecord("p9-kafka-tuned-record-" + k, "p9", false).tuned();
      beans[k][5] = new KafkaBatch("p9-kafka-tuned-batch-" + k, "p9", false).tuned();
    }
    double[][] flowing = new double[sides][rounds];
    double[][] fromStart = new double[sides][rounds];
    Path root = Files.createTempDirectory("objlog-p9-");
    EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1, "p9");
    List<AutoCloseable> closing = new ArrayList<>();
    try {
      broker.afterPropertiesSet();
      closing.add(broker::destroy);
      Map<String, Object> props = objlogProperties(root);
      props.put("bench.kafka.bootstrap", broker.getBrokersAsString());
      props.put("objlog.streams.p9.partitions", 1);
      ConfigurableApplicationContext ctx = ConsumerBench.start(props, g -> {
        for (Bean0[] row : beans) {
          for (Bean0 b : row) {
            ConsumerBench.register(g, b);
          }
        }
      });
      closing.add(ctx::close);
      writeObjlog(ctx.getBean(ObjlogTemplate.class), "p9", pool, n, valueBytes);
      KafkaTemplate<byte[], byte[]> kafka = ConsumerBench.tunedKafkaTemplate(broker.getBrokersAsString(), closing);
      List<CompletableFuture<?>> acks = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        acks.add(kafka.send("p9", Data.value(pool, i, valueBytes)));
      }
      kafka.flush();
      CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
      for (int k = 0; k <= rounds; k++) {
        for (int j = 0; j < sides; j++) {
          int q = (j + k) % sides; // each round starts with another side
          double[] t = consume(ctx, beans[k][q], q >= 2, n);
          if (k > 0) {
            flowing[q][k - 1] = n / t[0];
            fromStart[q][k - 1] = n / t[1];
          }
        }
      }
    } finally {
      for (int i = closing.size() - 1; i >= 0; i--) {
        closing.get(i).close();
      }
      deleteTree(root);
    }
    // objlog record / batch (sides 0, 1) against Kafka record / batch with default (2, 3) and tuned (4, 5) consumers
    double[][] ratios = new double[4][rounds];
    for (int k = 0; k < rounds; k++) {
      for (int c = 0; c < 4; c++) {
        ratios[c][k] = flowing[c % 2][k] / flowing[2 + c][k];
      }
    }
    double[] med = new double[4];
    String[] what = {"record listener vs @KafkaListener, consumer defaults", "batch listener vs @KafkaListener batch, consumer defaults",
        "record listener vs @KafkaListener, consumer tuned", "batch listener vs @KafkaListener batch, consumer tuned"};
    boolean allMet = true;
    for (int c = 0; c < 4; c++) {
      med[c] = Data.median(ratios[c]);
      allMet &= med[c] >= 1.0;
      r.check(what[c] + " ≥ 1.0× (records/s, 1 KiB records, one partition)",
          ScenarioContext.pct(med[c]) + " (median of " + rounds + " paired rounds)", med[c] >= 1.0);
    }
    r.summary("P9 listener throughput ≥ 1.0× @KafkaListener (record / batch listener)",
        "vs consumer defaults " + ScenarioContext.pct(med[0]) + " / " + ScenarioContext.pct(med[1]) + "; vs consumer tuned " + ScenarioContext.pct(med[2]) + " / "
            + ScenarioContext.pct(med[3]), allMet);
    r.line("| listener | records/s, flowing (median) | rounds | records/s from start (median) | MB/s flowing |");
    r.line("|---|---|---|---|---|");
    List<Map<String, Object>> rows = new ArrayList<>();
    Map<String, List<Double>> series = new LinkedHashMap<>();
    for (int q = 0; q < sides; q++) {
      double m = Data.median(flowing[q]);
      r.line("| " + names[q] + " | " + Math.round(m) + " | "
          + Arrays.toString(Arrays.stream(flowing[q]).map(Math::round).toArray()) + " | "
          + Math.round(Data.median(fromStart[q])) + " | " + round(m * valueBytes / MB, 1) + " |");
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("listener", names[q]);
      row.put("records_per_s", Arrays.stream(flowing[q]).map(x -> round(x, 0)).boxed().toList());
      row.put("records_per_s_median", round(m, 0));
      row.put("records_per_s_from_start", Arrays.stream(fromStart[q]).map(x -> round(x, 0)).boxed().toList());
      rows.add(row);
      series.put(CHART_NAMES[q], List.of(round(m / 1000, 1), round(Data.median(fromStart[q]) / 1000, 1)));
    }
    r.line("");
    StringBuilder per = new StringBuilder("Ratios per round (objlog / Kafka, flowing):");
    for (int c = 0; c < 4; c++) {
      per.append(c == 0 ? " " : "; ").append(what[c]).append(' ')
          .append(Arrays.toString(Arrays.stream(ratios[c]).map(x -> round(x, 2)).toArray()));
    }
    r.line(per.append('.').toString());
    r.line("");
    r.line("One Spring Boot context (no web server) with objlog's auto-configuration on a `FilesystemObjectStore` in "
        + "a temp directory and spring-kafka's `@EnableKafka` on spring-kafka-test's `EmbeddedKafkaKraftBroker` "
        + "(one broker, one partition) in the same JVM. The same " + n + " records of " + valueBytes + " B (text-like, "
        + "about 3× compressible) are written once to each side before any listener starts: objlog with "
        + "`ObjlogTemplate` (default writer: 10 ms batches, zstd 3), Kafka with `KafkaTemplate` acks=all, 1 MiB "
        + "batches, 10 ms linger, zstd (P8's tuned producer), so both logs hold compressed batches. Each round "
        + "starts, one after the other, a fresh listener of each kind (its own id, so no checkpoint, start "
        + "earliest; for Kafka its own consumer group, `auto.offset.reset=earliest`), waits until its method has "
        + "seen every record, and stops it; each round starts with another side, and round 0 warms up and is "
        + "not counted. The methods take `byte[]` (record) or `List<byte[]>` (batch) and only count. "
        + "Checkpoints: objlog BATCH mode (a checkpoint per read batch, in the bucket), Kafka's container "
        + "AckMode BATCH (offsets committed after each poll), both defaults otherwise (objlog reads up to "
        + "1 024 records per batch, Kafka polls up to 500 and fetches up to 1 MiB per partition). The tuned "
        + "Kafka consumer polls up to 1 024 records and fetches up to 8 MiB per partition. **Flowing** = records / time from the first "
        + "delivery to the last (the target's figure); **from start** adds the start-up: the objlog "
        + "container's checkpoint load, the Kafka consumer's group join and first fetch.");
    r.put("records", n).put("value_bytes", valueBytes).put("sides", rows)
        .put("ratio_record_vs_default", round(med[0], 3)).put("ratio_batch_vs_default", round(med[1], 3))
        .put("ratio_record_vs_tuned", round(med[2], 3)).put("ratio_batch_vs_tuned", round(med[3], 3));
    Charts.bars(imgDir.resolve("p9-listeners.png"), "P9 listener throughput, objlog vs Kafka (thousand records/s)",
        "thousand records/s", List.of("flowing (first → last delivery)", "from start"), series);
    r.line("");
    r.line(context.img(r, "p9-listeners.png"));
    return r;
  }

  /** Starts the listener, waits for {@code n} records, stops it: {flowing seconds, seconds from start}. */
  private static double[] consume(ConfigurableApplicationContext ctx, Bean0 bean, boolean kafka, long n) throws Exception {
    bean.sink.arm(n);
    long t0 = System.nanoTime();
    if (kafka) {
      ConsumerBench.kafkaContainer(ctx, bean.getId()).start();
    } else {
      ConsumerBench.startObjlog(ctx, bean.getId());
    }
    bean.sink.await(10);
    if (kafka) {
      ConsumerBench.kafkaContainer(ctx, bean.getId()).stop();
    } else {
      ConsumerBench.stopObjlog(ctx, bean.getId());
    }
    return new double[] {Math.max(1, bean.sink.lastNanos() - bean.sink.firstNanos()) / 1e9,
        (bean.sink.lastNanos() - t0) / 1e9};
  }

  // --- P9 replay through a listener ---------------------------------------------------------------

  Result p9Replay() throws Exception {
    long mib = smoke ? 4 : Long.getLong(REPLAY_MIB_PROPERTY, REPLAY_MIB_DEFAULT);
    Result r = new Result("P9R", "P9 replay through a listener from the start of a " + mib + " MiB log vs the engine's replay (P2)");
    int valueBytes = 1024;
    long n = mib * MiB / valueBytes;
    int rounds = smoke ? 1 : 3;
    String[] names = {"engine replay (`PartitionReader.replay(0)`)", "@ObjlogListener, record", "@ObjlogListener, batch"};
    int sides = names.length;
    Bean0[][] beans = new Bean0[rounds + 1][sides];
    for (int k = 0; k <= rounds; k++) {
      beans[k][1] = new ObjlogRecord("p9r-record-" + k, "p9r", false);
      beans[k][2] = new ObjlogBatch("p9r-batch-" + k, "p9r", false);
    }
    double[][] rate = new double[sides][rounds];
    Path root = Files.createTempDirectory("objlog-p9r-");
    double writeSecs;
    ConfigurableApplicationContext ctx = null;
    try {
      Map<String, Object> props = objlogProperties(root);
      props.put("bench.kafka.bootstrap", "unused:9092"); // no Kafka side here; the factory connects lazily
      props.put("objlog.streams.p9r.partitions", 1);
      // the BATCH checkpoints saved by a background saver (latest position wins) while the partition reads on
      props.put("objlog.listener.sync-checkpoints", System.getProperty(REPLAY_SYNC_CHECKPOINTS_PROPERTY, "false"));
      ctx = ConsumerBench.start(props, g -> {
        for (Bean0[] row : beans) {
          for (Bean0 b : row) {
            if (b != null) {
              ConsumerBench.register(g, b);
            }
          }
        }
      });
      long w0 = System.nanoTime();
      writeObjlog(ctx.getBean(ObjlogTemplate.class), "p9r", pool, n, valueBytes);
      writeSecs = (System.nanoTime() - w0) / 1e9;
      ObjlogStreams streams = ctx.getBean(ObjlogStreams.class);
      for (int k = 0; k <= rounds; k++) { // round 0 warms up
        for (int j = 0; j < sides; j++) {
          int q = (j + k) % sides;
          double secs = q == 0 ? engineReplay(streams, n) : consume(ctx, beans[k][q], false, n)[1];
          if (k > 0) {
            rate[q][k - 1] = n / secs;
          }
        }
      }
    } finally {
      if (ctx != null) {
        ctx.close();
      }
      deleteTree(root);
    }
    double[] recordRatios = new double[rounds];
    double[] batchRatios = new double[rounds];
    for (int k = 0; k < rounds; k++) {
      recordRatios[k] = rate[1][k] / rate[0][k];
      batchRatios[k] = rate[2][k] / rate[0][k];
    }
    double rRecord = Data.median(recordRatios);
    double rBatch = Data.median(batchRatios);
    r.check("replay through a record listener ≥ 0.9× the engine's replay, " + mib + " MiB",
        ScenarioContext.pct(rRecord) + " (median of " + rounds + " paired rounds)", rRecord >= 0.9);
    r.check("replay through a batch listener ≥ 0.9× the engine's replay, " + mib + " MiB",
        ScenarioContext.pct(rBatch) + " (median of " + rounds + " paired rounds)", rBatch >= 0.9);
    r.summary("P9 replay through a listener ≥ 0.9× engine replay (record / batch; " + mib + " MiB)",
        ScenarioContext.pct(rRecord) + " / " + ScenarioContext.pct(rBatch), rRecord >= 0.9 && rBatch >= 0.9);
    r.line("| side | records/s (median) | MB/s of values | rounds (records/s) |");
    r.line("|---|---|---|---|");
    List<Map<String, Object>> rows = new ArrayList<>();
    List<Double> bars = new ArrayList<>();
    for (int q = 0; q < sides; q++) {
      double med = Data.median(rate[q]);
      r.line("| " + names[q] + " | " + Math.round(med) + " | " + round(med * valueBytes / MB, 1) + " | "
          + Arrays.toString(Arrays.stream(rate[q]).map(Math::round).toArray()) + " |");
      rows.add(Map.of("side", names[q], "records_per_s", Arrays.stream(rate[q]).map(x -> round(x, 0)).boxed().toList()));
      bars.add(round(med * valueBytes / MB, 1));
    }
    r.line("");
    r.line("Ratios per round (listener / engine): record " + Arrays.toString(Arrays.stream(recordRatios)
        .map(x -> round(x, 2)).toArray()) + ", batch " + Arrays.toString(Arrays.stream(batchRatios)
        .map(x -> round(x, 2)).toArray()) + ".");
    r.line("");
    r.line("Log: " + n + " records of " + valueBytes + " B (" + mib + " MiB of values; the size is the system "
        + "property `" + REPLAY_MIB_PROPERTY + "`, default " + REPLAY_MIB_DEFAULT + " = the issue's 1 GiB) written "
        + "once with `ObjlogTemplate` (default writer) to one partition on a `FilesystemObjectStore` in a "
        + "temp directory (" + round(writeSecs, 1) + " s). Per round, in turn and each round starting with another "
        + "side: the engine's replay of the whole partition through the context's own log "
        + "(`ObjlogStreams.log(..).reader().partition(0).replay(0)`, every value's size summed: P2's path), and a "
        + "fresh `@ObjlogListener` of each kind (no checkpoint, start earliest, BATCH checkpoints in the bucket, "
        + "`objlog.listener.sync-checkpoints=" + System.getProperty(REPLAY_SYNC_CHECKPOINTS_PROPERTY, "false")
        + "`: saved in the background unless true; the property `" + REPLAY_SYNC_CHECKPOINTS_PROPERTY + "`) "
        + "timed from the container's start to its method receiving the last record. Round 0 warms up.");
    r.put("records", n).put("value_mib", mib).put("sides", rows).put("ratio_record", round(rRecord, 3))
        .put("ratio_batch", round(rBatch, 3));
    Charts.bars(imgDir.resolve("p9-replay.png"), "P9 replay of a " + mib + " MiB log: listener vs engine (MB/s of values)",
        "MB/s", List.of("replay"), seriesOf(names, bars));
    r.line("");
    r.line(context.img(r, "p9-replay.png"));
    return r;
  }

  private static Map<String, List<Double>> seriesOf(String[] names, List<Double> values) {
    Map<String, List<Double>> m = new LinkedHashMap<>();
    for (int i = 0; i < names.length; i++) {
      m.put(names[i].replace("`", ""), List.of(values.get(i)));
    }
    return m;
  }

  /** Seconds to replay every record of partition 0 through the engine's reader. */
  private static double engineReplay(ObjlogStreams streams, long records) {
    long t0 = System.nanoTime();
    long[] acc = new long[2];
    try (Stream<ReadRecord> s = streams.log("p9r").reader().partition(0).replay(0)) {
      s.forEach(rec -> {
        acc[0]++;
        acc[1] += rec.valueSize();
      });
    }
    double secs = (System.nanoTime() - t0) / 1e9;
    if (acc[0] != records) {
      throw new IllegalStateException("replayed " + acc[0] + " records, expected " + records);
    }
    return secs;
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
