package dev.objlog.benchmarks;

import static dev.objlog.benchmarks.Data.round;
import static dev.objlog.benchmarks.ScenarioContext.ms;

import dev.objlog.benchmarks.ConsumerBench.Bean0;
import dev.objlog.benchmarks.ConsumerBench.KafkaRecord;
import dev.objlog.benchmarks.ConsumerBench.ObjlogRecord;
import dev.objlog.spring.core.ObjlogTemplate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.ContainerTestUtils;

/**
 * P10 (issue 24): send → listener method latency at a fixed rate, objlog against tuned Kafka in
 * one JVM, each record's latency counted from the time it was scheduled to be sent.
 */
final class EndToEndScenarios {
  private final boolean smoke;
  private final Path imgDir;
  private final ScenarioContext context;
  private final byte[] pool;

  EndToEndScenarios(ScenarioContext context) {
    this.context = context;
    this.smoke = context.smoke();
    this.imgDir = context.imgDir();
    this.pool = context.pool();
  }

  Result p10() throws Exception {
    Result r = new Result("P10", "P10 end to end: send → listener method at a fixed rate, objlog vs Kafka tuned");
    int valueBytes = 1024;
    int rate = smoke ? 500 : 2_000;
    double roundSecs = smoke ? 0.3 : 5;
    int rounds = smoke ? 1 : 3;
    int perRound = (int) (rate * roundSecs);
    int warm = smoke ? 100 : 2 * rate;
    String[] names = {"objlog: ObjlogTemplate → @ObjlogListener (filesystem store, fsync)",
        "Kafka: KafkaTemplate tuned → @KafkaListener"};
    int sides = names.length;
    int total = sides * (warm + rounds * perRound);
    long[] due = new long[total];
    long[] arrived = new long[total];
    List<List<double[]>> lat = List.of(new ArrayList<>(), new ArrayList<>());
    Bean0 objlog = new ObjlogRecord("p10-objlog", "p10", true);
    Bean0 kafka = new KafkaRecord("p10-kafka", "p10", true);
    objlog.sink.timeByIndex = arrived;
    kafka.sink.timeByIndex = arrived;
    Bean0[] beans = {objlog, kafka};
    Path root = Files.createTempDirectory("objlog-p10-");
    EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1, "p10");
    List<AutoCloseable> closing = new ArrayList<>();
    try {
      broker.afterPropertiesSet();
      closing.add(broker::destroy);
      Map<String, Object> props = ListenerScenarios.objlogProperties(root);
      props.put("bench.kafka.bootstrap", broker.getBrokersAsString());
      props.put("objlog.streams.p10.partitions", 1);
      ConfigurableApplicationContext ctx = ConsumerBench.start(props, g -> {
        ConsumerBench.register(g, objlog);
        ConsumerBench.register(g, kafka);
      });
      closing.add(ctx::close);
      ContainerTestUtils.waitForAssignment(ConsumerBench.kafkaContainer(ctx, kafka.getId()), 1);
      ObjlogTemplate template = ctx.getBean(ObjlogTemplate.class);
      KafkaTemplate<byte[], byte[]> producer = ConsumerBench.tunedKafkaTemplate(broker.getBrokersAsString(), closing);
      List<IntFunction<CompletableFuture<?>>> senders = List.of(
          i -> template.send("p10", 0, Data.indexedValue(pool, i, valueBytes)),
          i -> producer.send("p10", Data.indexedValue(pool, i, valueBytes)));
      int next = 0;
      for (int q = 0; q < sides; q++) { // warm-up, not counted
        paced(senders.get(q), beans[q], next, warm, rate, due);
        next += warm;
      }
      for (int k = 0; k < rounds; k++) {
        for (int j = 0; j < sides; j++) {
          int q = (j + k) % sides;
          paced(senders.get(q), beans[q], next, perRound, rate, due);
          double[] l = new double[perRound];
          for (int i = 0; i < perRound; i++) {
            l[i] = (arrived[next + i] - due[next + i]) / 1e6;
          }
          lat.get(q).add(l);
          next += perRound;
        }
      }
    } finally {
      for (int i = closing.size() - 1; i >= 0; i--) {
        closing.get(i).close();
      }
      ListenerScenarios.deleteTree(root);
    }
    double[][] all = new double[sides][];
    for (int q = 0; q < sides; q++) {
      all[q] = lat.get(q).stream().flatMapToDouble(Arrays::stream).sorted().toArray();
    }
    double p99o = Data.percentile(all[0], 99);
    double p99k = Data.percentile(all[1], 99);
    boolean met = p99o <= p99k + 5;
    r.check("p99 send → listener at " + rate + " records/s ≤ Kafka tuned + 5 ms (same JVM, from scheduled send)",
        String.format("objlog %.1f ms vs Kafka %.1f ms + 5 = %.1f ms", p99o, p99k, p99k + 5), met);
    r.summary("P10 send → listener p99 at " + rate + "/s ≤ Kafka tuned + 5 ms (same JVM)",
        String.format("%.1f ms vs %.1f ms (%.2f×)", p99o, p99k + 5, p99o / (p99k + 5)), met);
    r.line("| side | p50 | p90 | p99 | p99.9 | max | p99 per round |");
    r.line("|---|---|---|---|---|---|---|");
    List<Map<String, Object>> rows = new ArrayList<>();
    Map<String, double[][]> series = new LinkedHashMap<>();
    double[] ps = {50, 75, 90, 95, 99, 99.9};
    for (int q = 0; q < sides; q++) {
      double[] a = all[q];
      List<Double> perRoundP99 = new ArrayList<>();
      for (double[] l : lat.get(q)) {
        double[] s = l.clone();
        Arrays.sort(s);
        perRoundP99.add(round(Data.percentile(s, 99), 1));
      }
      r.line("| " + names[q] + " | " + ms(Data.percentile(a, 50)) + " | " + ms(Data.percentile(a, 90)) + " | "
          + ms(Data.percentile(a, 99)) + " | " + ms(Data.percentile(a, 99.9)) + " | " + ms(a[a.length - 1]) + " | "
          + perRoundP99 + " |");
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("side", names[q]);
      row.put("p50_ms", round(Data.percentile(a, 50), 2));
      row.put("p99_ms", round(Data.percentile(a, 99), 2));
      row.put("max_ms", round(a[a.length - 1], 2));
      row.put("p99_per_round_ms", perRoundP99);
      rows.add(row);
      double[] y = new double[ps.length];
      for (int i = 0; i < ps.length; i++) {
        y[i] = Data.percentile(a, ps[i]);
      }
      series.put(q == 0 ? "objlog" : "Kafka tuned", new double[][] {ps, y});
    }
    r.line("");
    r.line("One JVM, one Spring Boot context, the sides in turn: " + rounds + " rounds of " + perRound + " records ("
        + roundSecs + " s at " + rate + " records/s) per side, each round starting with another side, after "
        + warm + " warm-up records per side. One thread sends record i at its scheduled time t0 + i / rate "
        + "(spinning until then; if it falls behind it sends at once and the delay counts); the latency of a "
        + "record is from that **scheduled** time to its listener method being called (the record's index is in "
        + "its first 8 bytes), so a stalled sender cannot hide latency (coordinated omission). Values: "
        + valueBytes + " B, text-like. objlog: `ObjlogTemplate` (default writer: 10 ms batches, zstd 3; the "
        + "filesystem store forces every segment and head to disk before the commit) → `@ObjlogListener` record "
        + "listener on one partition, woken by the commit in this JVM, BATCH checkpoints in the bucket. Kafka: "
        + "`KafkaTemplate` acks=all, 1 MiB batches, 10 ms linger, zstd (P8's tuned producer) → `@KafkaListener` "
        + "record listener (AckMode BATCH, consumer defaults: fetch.min.bytes 1) on spring-kafka-test's "
        + "`EmbeddedKafkaKraftBroker`, one partition; the broker acknowledges from the page cache.");
    r.put("rate", rate).put("records_per_round", perRound).put("rounds", rounds).put("sides", rows)
        .put("objlog_p99_ms", round(p99o, 2)).put("kafka_p99_ms", round(p99k, 2));
    Charts.lines(imgDir.resolve("p10-end-to-end.png"), "P10 send → listener latency at " + rate
        + " records/s (from scheduled send)", "percentile", "ms", series, false);
    r.line("");
    r.line(context.img(r, "p10-end-to-end.png"));
    return r;
  }

  /** Sends records [from, from + n) at {@code perSecond}, then waits for the listener to have them all. */
  private static void paced(IntFunction<CompletableFuture<?>> send, Bean0 listener, int from, int n, int perSecond,
      long[] due) throws Exception {
    listener.sink.arm(n);
    long gap = 1_000_000_000L / perSecond;
    long t0 = System.nanoTime() + 1_000_000;
    for (int i = 0; i < n; i++) {
      long at = t0 + i * gap;
      due[from + i] = at;
      while (System.nanoTime() < at) {
        Thread.onSpinWait();
      }
      send.apply(from + i);
    }
    listener.sink.await(5);
  }
}
