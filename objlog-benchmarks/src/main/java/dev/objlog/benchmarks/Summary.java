package dev.objlog.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one-line-per-target summary table at the top of docs/BENCHMARKS.md (issues 23 and 24),
 * between {@link #BEGIN} and {@link #END}. A harness run replaces the lines of the scenarios it
 * ran and keeps every other line (hand-written ones included), ordered by {@link Harness#ORDER}.
 * Stateless; the methods are pure functions of their arguments.
 */
final class Summary {
  static final String BEGIN = "<!-- summary:begin -->";
  static final String END = "<!-- summary:end -->";
  static final String HEADER = "| scenario | target | latest figure | met? | run (UTC), load |\n|---|---|---|---|---|\n";

  private Summary() {}

  /** One line of the table. */
  record Row(String scenario, String target, String figure, String met, String run) {
    String format() {
      return "| " + cell(scenario) + " | " + cell(target) + " | " + cell(figure) + " | " + cell(met) + " | "
          + cell(run) + " |";
    }

    private static String cell(String s) {
      return s.replace("\n", " ").replace("|", "\\|");
    }
  }

  /** The rows a result contributes: its declared summary lines, or else one per check with a verdict. */
  static List<Row> rows(Result r, String run) {
    List<Result.Check> lines = r.summary.isEmpty()
        ? r.checks.stream().filter(c -> c.met() != null).toList()
        : r.summary;
    List<Row> out = new ArrayList<>();
    for (Result.Check c : lines) {
      out.add(new Row(r.id, c.target(), c.figure(), verdict(c.met()), run));
    }
    return out;
  }

  static String verdict(Boolean met) {
    return met == null ? "—" : met ? "**met**" : "**not met**";
  }

  /**
   * Returns {@code markdown} with the summary table's lines for the scenarios in {@code fresh}
   * replaced by theirs. Without markers the table goes after the first heading line.
   */
  static String update(String markdown, Map<String, List<Row>> fresh, List<String> order) {
    int b = markdown.indexOf(BEGIN);
    int e = markdown.indexOf(END);
    String before;
    String after;
    List<Row> kept = new ArrayList<>();
    if (b >= 0 && e > b) {
      before = markdown.substring(0, b);
      after = markdown.substring(e + END.length());
      for (String line : markdown.substring(b + BEGIN.length(), e).split("\n")) {
        Row row = parse(line);
        if (row != null && !fresh.containsKey(row.scenario())) {
          kept.add(row);
        }
      }
    } else {
      int nl = markdown.startsWith("#") ? markdown.indexOf('\n') : -1;
      before = nl < 0 ? "" : markdown.substring(0, nl + 1) + "\n";
      after = "\n\n" + (nl < 0 ? markdown : markdown.substring(nl + 1).stripLeading());
    }
    Map<String, List<Row>> byScenario = new LinkedHashMap<>();
    for (Row row : kept) {
      byScenario.computeIfAbsent(row.scenario(), k -> new ArrayList<>()).add(row);
    }
    byScenario.putAll(fresh);
    StringBuilder s = new StringBuilder(BEGIN).append('\n').append(HEADER);
    List<String> ids = new ArrayList<>(order);
    byScenario.keySet().stream().filter(id -> !ids.contains(id)).forEach(ids::add);
    for (String id : ids) {
      for (Row row : byScenario.getOrDefault(id, List.of())) {
        s.append(row.format()).append('\n');
      }
    }
    s.append(END);
    return before + s + after;
  }

  /** A table line back into a row; null for the header, its rule and anything else. */
  static Row parse(String line) {
    String t = line.trim();
    if (!t.startsWith("|") || !t.endsWith("|") || t.startsWith("|---") || t.startsWith("| scenario |")) {
      return null;
    }
    List<String> cells = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    for (int i = 1; i < t.length() - 1; i++) {
      char ch = t.charAt(i);
      if (ch == '\\' && i + 1 < t.length() - 1 && t.charAt(i + 1) == '|') {
        cell.append('|');
        i++;
      } else if (ch == '|') {
        cells.add(cell.toString().trim());
        cell.setLength(0);
      } else {
        cell.append(ch);
      }
    }
    cells.add(cell.toString().trim());
    return cells.size() == 5 ? new Row(cells.get(0), cells.get(1), cells.get(2), cells.get(3), cells.get(4)) : null;
  }
}
