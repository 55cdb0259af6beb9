package dev.objlog.benchmarks;

import static dev.objlog.benchmarks.Data.MB;
import static dev.objlog.benchmarks.Data.round;
import static dev.objlog.benchmarks.ScenarioContext.ms;

import dev.objlog.ObjlogOptions;
import dev.objlog.read.ReaderOptions;
import dev.objlog.spring.core.ObjlogStream;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * P8: the producer side by side with Kafka (issues 8 and 23). Five sides, one {@link SendDriver}:
 * objlog's {@code ObjlogTemplate} on the filesystem store with and without fsync, and
 * {@code KafkaTemplate} (acks=all) with the producer's defaults, with batching like objlog's, and
 * with that batching on a topic that fsyncs every append before acknowledging it (durable like
 * objlog's default), on spring-kafka-test's embedded KRaft broker in the same JVM. Three loads, each in paired rounds
 * that start with another side: flat out (throughput), a fixed rate (2 000 and 20 000 records/s,
 * latency from the scheduled send), and saturation (the same number of outstanding sends per
 * producer). Thread-safety: one instance per harness run, used from the harness thread.
 */
final class ProducerScenario {
  private static final String[] NAMES = {"objlog, filesystem store (fsync)", "objlog, filesystem store without fsync",
      "Kafka, producer defaults", "Kafka, 1 MiB batches, 10 ms linger, zstd",
      "Kafka, 1 MiB batches, 10 ms linger, zstd, flush.messages=1 (fsync before ack)"};
  private static final int OBJLOG = 0;
  private static final int KAFKA_DEFAULT = 2;
  private static final int KAFKA_TUNED = 3;
  private static final int KAFKA_FSYNC = 4;

  private final ScenarioContext context;

  ProducerScenario(ScenarioContext context) {
    this.context = context;
  }

  Result p8() throws Exception {
    Result r = new Result("P8", "P8 side by side with Kafka (ObjlogTemplate on the filesystem store vs KafkaTemplate, acks=all)");
    boolean smoke = context.smoke();
    int valueBytes = 1024;
    int records = smoke ? 500 : 65_536;
    int rounds = smoke ? 1 : 4;
    int latencyRounds = smoke ? 1 : 3;
    int[] rates = {2_000, 20_000};
    double[] rateSecs = smoke ? new double[] {0.1, 0.02} : new double[] {3, 2};
    int window = smoke ? 64 : 1024;
    byte[][] values = new byte[records][];
    for (int i = 0; i < records; i++) {
      values[i] = Data.value(context.pool(), i, valueBytes);
    }
    int sides = NAMES.length;
    List<List<SendDriver.Run>> flat = runs(sides);
    List<List<List<SendDriver.Run>>> fixed = new ArrayList<>();
    List<List<SendDriver.Run>> saturated = runs(sides);
    Path durableDir = Files.createTempDirectory("objlog-p8-");
    Path cacheDir = Files.createTempDirectory("objlog-p8-nosync-");
    EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1, "p8-default", "p8-tuned");
    List<AutoCloseable> closing = new ArrayList<>();
    try {
      broker.afterPropertiesSet();
      closing.add(broker::destroy);
      // Kafka's broker acknowledges from the page cache; this topic forces its log to disk after
      // every append first, as objlog's default store does with each segment and head.
      broker.addTopics(new NewTopic("p8-tuned-fsync", 1, (short) 1).configs(Map.of("flush.messages", "1")));
      KafkaTemplate<byte[], byte[]> kafkaDefault = ConsumerBench.kafkaTemplate(broker.getBrokersAsString(), closing,
          Map.of());
      KafkaTemplate<byte[], byte[]> kafkaTuned = ConsumerBench.tunedKafkaTemplate(broker.getBrokersAsString(), closing);
      ObjlogTemplate durable = objlogTemplate(FilesystemObjectStore.open(durableDir), closing);
      ObjlogTemplate cached = objlogTemplate(FilesystemObjectStore.builder(cacheDir).durableWrites(false).build(), closing);
      SendDriver.Sender[] senders = {
          (i, v) -> durable.send("p8", 0, v),
          (i, v) -> cached.send("p8", 0, v),
          (i, v) -> kafkaDefault.send("p8-default", v),
          (i, v) -> kafkaTuned.send("p8-tuned", v),
          (i, v) -> kafkaTuned.send("p8-tuned-fsync", v)};
      // warm-up: connections, JIT, the broker's log and the templates' writers
      for (int k = 0; k < (smoke ? 1 : 2); k++) {
        for (SendDriver.Sender sender : senders) {
          SendDriver.outstanding(sender, values, Math.min(records, 8192), Integer.MAX_VALUE);
        }
      }
      for (int k = 0; k < rounds; k++) {
        for (int j = 0; j < sides; j++) {
          int q = (j + k) % sides; // each round starts with another side
          settleDisk(smoke);
          flat.get(q).add(SendDriver.outstanding(senders[q], values, records, Integer.MAX_VALUE));
        }
      }
      for (int x = 0; x < rates.length; x++) {
        List<List<SendDriver.Run>> atRate = runs(sides);
        fixed.add(atRate);
        int n = Math.max(10, (int) (rates[x] * rateSecs[x]));
        for (int k = 0; k < latencyRounds; k++) {
          for (int j = 0; j < sides; j++) {
            int q = (j + k) % sides;
            settleDisk(smoke);
            atRate.get(q).add(SendDriver.fixedRate(senders[q], values, n, rates[x]));
          }
        }
      }
      for (int k = 0; k < latencyRounds; k++) {
        for (int j = 0; j < sides; j++) {
          int q = (j + k) % sides;
          settleDisk(smoke);
          saturated.get(q).add(SendDriver.outstanding(senders[q], values, records, window));
        }
      }
    } finally {
      for (int i = closing.size() - 1; i >= 0; i--) {
        closing.get(i).close();
      }
      Scenarios.deleteTree(durableDir);
      Scenarios.deleteTree(cacheDir);
    }

    // throughput, flat out: objlog (fsync, the default) over each Kafka configuration, per round
    double[] vsDefault = pairedRatios(flat, OBJLOG, KAFKA_DEFAULT);
    double[] vsTuned = pairedRatios(flat, OBJLOG, KAFKA_TUNED);
    double rDefault = Data.median(vsDefault);
    double rTuned = Data.median(vsTuned);
    String paired = " (median of " + rounds + " paired rounds)";
    r.check("throughput ≥ 1.0× Kafka, producer defaults (objlog with fsync; 1 KiB records, one partition)",
        ScenarioContext.pct(rDefault) + paired, rDefault >= 1.0);
    r.check("throughput ≥ 1.0× Kafka, batching tuned like objlog's (1 MiB, 10 ms, zstd)",
        ScenarioContext.pct(rTuned) + paired, rTuned >= 1.0);
    r.summary("throughput ≥ 1.0× Kafka (producer defaults / tuned like objlog's)",
        ScenarioContext.pct(rDefault) + " / " + ScenarioContext.pct(rTuned) + paired, rDefault >= 1.0 && rTuned >= 1.0);
    List<Map<String, Object>> latencyRows = new ArrayList<>();
    for (int x = 0; x < rates.length; x++) {
      double[] objlog = SendDriver.Run.pooled(fixed.get(x).get(OBJLOG));
      double[] nosync = SendDriver.Run.pooled(fixed.get(x).get(1));
      double[] tuned = SendDriver.Run.pooled(fixed.get(x).get(KAFKA_TUNED));
      double o = Data.percentile(objlog, 99);
      double t = Data.percentile(tuned, 99);
      double f = Data.percentile(SendDriver.Run.pooled(fixed.get(x).get(KAFKA_FSYNC)), 99);
      String target = "fixed rate " + rates[x] + " records/s: p99 send→ack from the scheduled send ≤ 1.0× Kafka tuned";
      String figure = ms(o) + " vs " + ms(t) + " (" + ScenarioContext.pct(o / t) + "); without fsync "
          + ms(Data.percentile(nosync, 99)) + "; both fsync: " + ms(o) + " vs " + ms(f) + " ("
          + ScenarioContext.pct(o / f) + ")";
      r.check(target, figure, o <= t);
      r.summary(target, figure, o <= t);
    }
    double[] satTput = pairedRatios(saturated, OBJLOG, KAFKA_TUNED);
    double satRatio = Data.median(satTput);
    double satO = Data.percentile(SendDriver.Run.pooled(saturated.get(OBJLOG)), 99);
    double satT = Data.percentile(SendDriver.Run.pooled(saturated.get(KAFKA_TUNED)), 99);
    double satF = Data.percentile(SendDriver.Run.pooled(saturated.get(KAFKA_FSYNC)), 99);
    double satFsyncRatio = Data.median(pairedRatios(saturated, OBJLOG, KAFKA_FSYNC));
    String satTarget = "saturation (" + window + " outstanding sends per producer): p99 ≤ 1.0× Kafka tuned, "
        + "throughput ≥ 1.0×";
    String satFigure = "p99 " + ms(satO) + " vs " + ms(satT) + " (" + ScenarioContext.pct(satO / satT)
        + "); throughput " + ScenarioContext.pct(satRatio) + " (median of " + latencyRounds + " paired rounds)"
        + "; both fsync: p99 " + ms(satO) + " vs " + ms(satF) + ", throughput " + ScenarioContext.pct(satFsyncRatio);
    boolean satMet = satO <= satT && satRatio >= 1.0;
    r.check(satTarget, satFigure, satMet);
    r.summary(satTarget, satFigure, satMet);

    r.line("**Throughput, flat out** (one thread sends as fast as `send` returns; send→ack from the send call):");
    r.line("");
    r.line("| side | MB/s (median) | rounds | send→ack p50 | p99 |");
    r.line("|---|---|---|---|---|");
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int q = 0; q < sides; q++) {
      double[] mbs = flat.get(q).stream().mapToDouble(x -> x.recordsPerSecond() * valueBytes / MB).toArray();
      double[] all = SendDriver.Run.pooled(flat.get(q));
      r.line("| " + NAMES[q] + " | " + round(Data.median(mbs), 1) + " | "
          + Arrays.toString(Arrays.stream(mbs).map(x -> round(x, 1)).toArray()) + " | "
          + ms(Data.percentile(all, 50)) + " | " + ms(Data.percentile(all, 99)) + " |");
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("side", NAMES[q]);
      row.put("mb_s", Arrays.stream(mbs).map(x -> round(x, 1)).boxed().toList());
      row.put("mb_s_median", round(Data.median(mbs), 1));
      row.put("flat_out_p50_ms", round(Data.percentile(all, 50), 2));
      row.put("flat_out_p99_ms", round(Data.percentile(all, 99), 2));
      rows.add(row);
    }
    r.line("");
    r.line("Ratios per round (objlog with fsync / Kafka MB/s, back to back): vs defaults " + list(vsDefault)
        + ", vs tuned " + list(vsTuned) + ".");
    r.line("");
    r.line("**Latency** (ms; fixed rate: from each record's scheduled send time; saturation: " + window
        + " outstanding sends, from the send call; " + latencyRounds + " rounds per side pooled):");
    r.line("");
    r.line("| side | load | p50 | p99 | p99.9 | max | records/s | sender late by (max) |");
    r.line("|---|---|---|---|---|---|---|---|");
    Map<String, List<Double>> series = new LinkedHashMap<>();
    for (int q = 0; q < sides; q++) {
      List<Double> chart = new ArrayList<>();
      for (int x = 0; x <= rates.length; x++) {
        List<SendDriver.Run> runs = x < rates.length ? fixed.get(x).get(q) : saturated.get(q);
        String load = x < rates.length ? rates[x] + "/s" : window + " outstanding";
        double[] all = SendDriver.Run.pooled(runs);
        double tput = Data.median(runs.stream().mapToDouble(SendDriver.Run::recordsPerSecond).toArray());
        double late = runs.stream().mapToDouble(SendDriver.Run::maxLateMs).max().orElse(0);
        r.line("| " + NAMES[q] + " | " + load + " | " + ms(Data.percentile(all, 50)) + " | "
            + ms(Data.percentile(all, 99)) + " | " + ms(Data.percentile(all, 99.9)) + " | "
            + ms(all[all.length - 1]) + " | " + Math.round(tput) + " | " + (x < rates.length ? ms(late) : "—") + " |");
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("side", NAMES[q]);
        row.put("load", load);
        row.put("p50_ms", round(Data.percentile(all, 50), 2));
        row.put("p99_ms", round(Data.percentile(all, 99), 2));
        row.put("p999_ms", round(Data.percentile(all, 99.9), 2));
        row.put("max_ms", round(all[all.length - 1], 2));
        row.put("records_per_s", Math.round(tput));
        row.put("sender_late_max_ms", round(late, 2));
        latencyRows.add(row);
        chart.add(round(Data.percentile(all, 99), 1));
      }
      series.put(NAMES[q], chart);
    }
    r.line("");
    r.line("Saturation throughput ratios per round (objlog with fsync / Kafka tuned records/s): " + list(satTput) + ".");
    r.line("");
    r.line("One JVM, one run: the same text-like values of " + valueBytes + " B (about 3× compressible) for every "
        + "side; the sides take turns, each round starting with another, and the machine's dirty pages are written "
        + "out (`sync`) before every timed run, so no side pays for the page cache another filled; one driver (`SendDriver`) sends for "
        + "every side, only the `send` call differs. **Flat out**: " + records + " records per side and round "
        + "as fast as `send` returns, timed from the first send to the last acknowledgement (MB/s of value "
        + "bytes), " + rounds + " rounds after 2 warm-up passes. **Fixed rate** (issue 23): record i is due at "
        + "t0 + i / rate and sent at or after that time (the sender parks, then spins the last 0.1 ms); its "
        + "latency is its acknowledgement minus that **scheduled** time, so a sender held up by a blocking "
        + "`send` cannot hide the wait of the records behind it (coordinated omission); \"sender late by\" is "
        + "how far behind its schedule a send ever started. " + Arrays.toString(rateSecs) + " s per rate and "
        + "round. **Saturation**: the same " + records + " records with at most " + window + " sends "
        + "unacknowledged per producer (a semaphore taken before each send and given back by its "
        + "acknowledgement), the same window for every side: each side's own throughput at that depth and its "
        + "latency from the send call. objlog: `ObjlogTemplate` with default writer settings (10 ms batches, "
        + "zstd 3, 4 segments in flight) on `FilesystemObjectStore` in a temp directory; by default it forces "
        + "every segment and head to disk (`fsync` of file and directory) before acknowledging; the second "
        + "side turns that off (`durableWrites(false)`), which is what Kafka's broker does by default "
        + "(acknowledged from the page cache, flushed later). Kafka: spring-kafka-test "
        + "`EmbeddedKafkaKraftBroker` (one broker, one partition, replication 1) in the same JVM, "
        + "`KafkaTemplate` with acks=all (idempotence on), first with the producer's other defaults (16 KiB "
        + "batches, 5 ms linger, no compression), then with batching close to objlog's, then with that batching "
        + "on a topic with `flush.messages=1`, whose broker forces its log to disk after every append before "
        + "acknowledging it: the same durability as objlog's default. The targets compare objlog's default "
        + "(fsync) with Kafka tuned, as issue 23 states them; \"both fsync\" is the like-for-like pair. "
        + "Percentiles are exact over the pooled rounds.");
    r.put("records", records).put("value_bytes", valueBytes).put("window", window).put("sides", rows)
        .put("latency", latencyRows)
        .put("ratio_vs_kafka_default", round(rDefault, 3)).put("ratio_vs_kafka_tuned", round(rTuned, 3))
        .put("ratios_vs_kafka_default", Arrays.stream(vsDefault).map(x -> round(x, 3)).boxed().toList())
        .put("ratios_vs_kafka_tuned", Arrays.stream(vsTuned).map(x -> round(x, 3)).boxed().toList())
        .put("saturation_throughput_ratios_vs_kafka_tuned", Arrays.stream(satTput).map(x -> round(x, 3)).boxed().toList());
    List<String> cats = new ArrayList<>();
    for (int rate : rates) {
      cats.add("p99 at " + rate + "/s (ms)");
    }
    cats.add("p99 at " + window + " outstanding (ms)");
    Charts.bars(context.imgDir().resolve("p8-kafka.png"), "P8 send→ack p99, objlog (filesystem) vs Kafka (acks=all)",
        "ms", cats, series);
    r.line("");
    r.line(context.img(r, "p8-kafka.png"));
    return r;
  }

  /**
   * Writes every dirty page of the machine to disk before a timed run ({@code sync}). Without it a
   * side that forces its files pays for the page cache the sides before it filled: on ext4 an
   * fsync commits the journal, which first writes out other files' dirty data, so objlog's fsync
   * side once took 800 ms p99 at 2 000/s after Kafka's and the no-fsync side's flat-out rounds.
   * Where there is no {@code sync} command the run goes ahead unsettled; a smoke run (no
   * measurement) does not settle.
   */
  private static void settleDisk(boolean smoke) throws InterruptedException {
    if (smoke) {
      return;
    }
    try {
      new ProcessBuilder("sync").inheritIO().start().waitFor();
    } catch (IOException noSyncCommand) {
      // not a Unix-like machine: nothing to settle with
    }
  }

  private static List<List<SendDriver.Run>> runs(int sides) {
    List<List<SendDriver.Run>> out = new ArrayList<>();
    for (int q = 0; q < sides; q++) {
      out.add(new ArrayList<>());
    }
    return out;
  }

  /** Per round, side {@code a}'s records/s over side {@code b}'s (the two ran back to back). */
  private static double[] pairedRatios(List<List<SendDriver.Run>> runs, int a, int b) {
    double[] out = new double[runs.get(a).size()];
    for (int k = 0; k < out.length; k++) {
      out[k] = runs.get(a).get(k).recordsPerSecond() / runs.get(b).get(k).recordsPerSecond();
    }
    return out;
  }

  private static String list(double[] xs) {
    return Arrays.toString(Arrays.stream(xs).map(x -> round(x, 2)).toArray());
  }

  private static ObjlogTemplate objlogTemplate(ObjectStore store, List<AutoCloseable> closing) {
    ObjlogStreams streams = new ObjlogStreams(store, List.of(new ObjlogStream("p8", "bench/p8", 1)),
        ObjlogOptions.defaults(), ReaderOptions.defaults());
    closing.add(streams);
    ObjlogTemplate template = new ObjlogTemplate(streams);
    closing.add(template);
    return template;
  }
}
