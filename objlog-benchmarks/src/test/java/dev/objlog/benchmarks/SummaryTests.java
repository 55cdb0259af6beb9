package dev.objlog.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The summary table writer: replaces only the scenarios that ran and keeps the rest of the file. */
class SummaryTests {
  private static final List<String> ORDER = List.of("P1", "P2", "P9");

  private static Summary.Row row(String id, String figure) {
    return new Summary.Row(id, id + " target", figure, "**met**", "2026-12-03 07:00, load 1.0 → 1.1");
  }

  @Test
  void aRunReplacesTheLinesOfItsScenariosAndKeepsTheOthersInScenarioOrder() {
    String doc = "# Benchmarks\n\nintro\n\n" + Summary.BEGIN + "\n" + Summary.HEADER
        + row("P9", "old P9").format() + "\n" + row("P1", "hand-written P1").format() + "\n"
        + row("P2", "old P2").format() + "\n" + Summary.END + "\n\n## Rest\ntext\n";
    Map<String, List<Summary.Row>> fresh = new LinkedHashMap<>();
    fresh.put("P2", List.of(row("P2", "new P2 a"), row("P2", "new P2 b")));
    String out = Summary.update(doc, fresh, ORDER);
    assertTrue(out.startsWith("# Benchmarks\n\nintro\n\n" + Summary.BEGIN + "\n" + Summary.HEADER), out);
    assertTrue(out.endsWith(Summary.END + "\n\n## Rest\ntext\n"), out);
    String table = out.substring(out.indexOf(Summary.HEADER) + Summary.HEADER.length(), out.indexOf(Summary.END));
    assertEquals(row("P1", "hand-written P1").format() + "\n" + row("P2", "new P2 a").format() + "\n"
        + row("P2", "new P2 b").format() + "\n" + row("P9", "old P9").format() + "\n", table);
  }

  @Test
  void withoutMarkersTheTableGoesAfterTheTitleAndTheTextStays() {
    String out = Summary.update("# Benchmarks\n\nintro\n", Map.of("P9", List.of(row("P9", "1.2×"))), ORDER);
    assertEquals("# Benchmarks\n\n" + Summary.BEGIN + "\n" + Summary.HEADER + row("P9", "1.2×").format() + "\n"
        + Summary.END + "\n\nintro\n", out);
    // a second run finds its markers and changes only the line
    String again = Summary.update(out, Map.of("P9", List.of(row("P9", "0.8×"))), ORDER);
    assertEquals(out.replace("1.2×", "0.8×"), again);
  }

  @Test
  void pipesInAFigureSurviveTheRoundTrip() {
    Summary.Row r = row("P1", "a | b");
    assertEquals(r, Summary.parse(r.format()));
    assertNull(Summary.parse("|---|---|---|---|---|"));
    assertNull(Summary.parse(Summary.HEADER.lines().findFirst().orElseThrow()));
  }

  @Test
  void aScenarioWithoutDeclaredLinesContributesOneLinePerCheckWithAVerdict() {
    Result r = new Result("P4", "P4").check("a", "1.0", true).check("b", "reported", null).check("c", "0.1", false);
    List<Summary.Row> rows = Summary.rows(r, "run");
    assertEquals(List.of(new Summary.Row("P4", "a", "1.0", "**met**", "run"),
        new Summary.Row("P4", "c", "0.1", "**not met**", "run")), rows);
    r.summary("one line", "x", true);
    assertEquals(List.of(new Summary.Row("P4", "one line", "x", "**met**", "run")), Summary.rows(r, "run"));
  }
}
