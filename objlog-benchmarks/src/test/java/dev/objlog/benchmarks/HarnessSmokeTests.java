package dev.objlog.benchmarks;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CI runs the harness with tiny sizes: every scenario must run and land in the results file, with
 * its charts. No timing is asserted; benchmarks are not tests. No Docker: P6's writer is a child
 * JVM, P8's KRaft broker is embedded in this one, S3COST's S3Proxy too. On-demand scenarios
 * (CATALOG10M: minutes) run only when {@code --only} names them, so not here.
 */
class HarnessSmokeTests {

  @TempDir Path dir;

  @Test
  void everyScenarioRunsAtSmokeSizeAndIsInTheResults() throws Exception {
    Path json = Harness.run(new String[] {"--smoke", "--out", dir.toString()});
    String text = Files.readString(json);
    for (String id : Harness.ORDER) {
      if (Harness.ON_DEMAND.contains(id)) {
        assertFalse(text.contains("\"" + id + "\": {"), "on-demand scenario " + id + " ran without --only");
        continue;
      }
      assertTrue(text.contains("\"" + id + "\": {"), "results lack scenario " + id);
      assertTrue(Files.exists(dir.resolve("results/" + id + ".json")), "no per-scenario results for " + id);
    }
    assertFalse(text.contains("\"error\""), "a scenario failed:\n" + text);
    String md = Files.readString(dir.resolve("BENCHMARKS-harness.md"));
    for (String id : Harness.ORDER) {
      if (Harness.ON_DEMAND.contains(id)) {
        continue;
      }
      assertTrue(md.contains("<!-- harness:" + id + ":begin -->"), "markdown lacks " + id);
      assertTrue(md.contains("\n| " + id + " | "), "summary table lacks " + id);
    }
    // issue 23: the producer's latency targets, P1's every configuration, P6's format floor
    for (String line : new String[] {"| P8 | fixed rate 2000 records/s: p99 send→ack from the scheduled send",
        "| P8 | fixed rate 20000 records/s: p99 send→ack from the scheduled send", "| P8 | saturation (",
        "| P1 | append→commit ≥ 0.8× raw zstd, same threads, every configuration",
        "| P6 | other process ≤ poll + 2 store round trips + 10 ms p99"}) {
      assertTrue(md.contains(line), "summary table lacks " + line);
    }
    String p1 = md.substring(md.indexOf("| P1 | append→commit ≥ 0.8× raw zstd, same threads, every configuration"));
    p1 = p1.substring(0, p1.indexOf('\n'));
    for (String config : new String[] {"1 KiB L1 p1 ", "1 KiB L1 p8 ", "1 KiB L3 p1 ", "1 KiB L3 p8 ", "16 KiB L1 p1 ",
        "16 KiB L1 p8 ", "16 KiB L3 p1 ", "16 KiB L3 p8 "}) {
      assertTrue(p1.contains(config), "P1's summary line lacks " + config + ": " + p1);
    }
    for (String png : new String[] {"p1-throughput.png", "p2-replay.png", "p3-flush.png", "p6-tail.png",
        "p7-memory.png", "catalog-scale.png", "p8-kafka.png", "p9-listeners.png", "p9-replay.png",
        "p10-end-to-end.png", "scale-partitions.png", "scale-record-size.png", "p10x-other-process.png"}) {
      assertTrue(Files.size(dir.resolve("img/" + png)) > 1000, "chart " + png);
    }
  }
}
