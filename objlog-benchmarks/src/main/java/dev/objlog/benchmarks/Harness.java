package dev.objlog.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The end-to-end benchmark harness (issue #8): runs the scenarios, writes a results JSON, draws
 * the charts (XChart, PNG) and regenerates the harness section of docs/BENCHMARKS.md between its
 * markers, one block per scenario, so a partial run ({@code --only}) replaces only its blocks,
 * and the lines of its scenarios in the one-line-per-target summary table at the top ({@link Summary}).
 *
 * <pre>
 * java -cp objlog-benchmarks/target/objlog-benchmarks.jar dev.objlog.benchmarks.Harness [--smoke] [--only P4,P5] [--out DIR]
 * </pre>
 *
 * <p>Without {@code --out} it must run from the repository root: results go to
 * docs/benchmarks/results.json (this run) and docs/benchmarks/results/ID.json (latest per
 * scenario), charts to docs/img/, text to docs/BENCHMARKS.md. With {@code --out DIR} everything
 * goes under DIR (results.json, img/, BENCHMARKS-harness.md) and docs are left alone: that is what
 * the smoke test does. Benchmarks are not tests: nothing here fails on a timing. Scenarios in
 * {@link #ON_DEMAND} (CATALOG10M: minutes) run only when {@code --only} names them.
 */
public final class Harness {
  static final List<String> ORDER = List.of("P1", "P2", "P3", "P4", "P5", "P6", "P7", "CATALOG", "P8", "P9", "P9R", "P10",
      "SCALE", "CATALOG10M", "S3COST", "P10X", "ADAPTIVE");
  /** Scenarios that take minutes: they run only when {@code --only} names them, never in a full or smoke run. */
  static final Set<String> ON_DEMAND = Set.of("CATALOG10M");
  static final String BEGIN = "<!-- harness:begin -->";
  static final String END = "<!-- harness:end -->";

  private Harness() {}

  public static void main(String[] args) throws Exception {
    run(args);
  }

  /** Runs the harness; returns the results file written. */
  public static Path run(String[] args) throws Exception {
    boolean smoke = false;
    Set<String> only = new LinkedHashSet<>(ORDER);
    only.removeAll(ON_DEMAND);
    Path out = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--smoke" -> smoke = true;
        case "--only" -> {
          only = new LinkedHashSet<>();
          for (String s : args[++i].split(",")) {
            String id = s.trim().toUpperCase(Locale.ROOT);
            if (!ORDER.contains(id)) {
              throw new IllegalArgumentException("unknown scenario " + s + "; known: " + ORDER);
            }
            only.add(id);
          }
        }
        case "--out" -> out = Path.of(args[++i]);
        default -> throw new IllegalArgumentException("usage: Harness [--smoke] [--only P1,P2,...] [--out DIR]");
      }
    }
    Path root = Path.of("").toAbsolutePath();
    Path jsonDir;
    Path imgDir;
    Path md;
    String imgLink;
    if (out == null) {
      md = root.resolve("docs/BENCHMARKS.md");
      if (!Files.exists(md)) {
        throw new IllegalStateException("run from the repository root (no docs/BENCHMARKS.md here), or pass --out DIR");
      }
      jsonDir = root.resolve("docs/benchmarks");
      imgDir = root.resolve("docs/img");
      imgLink = "img/";
    } else {
      jsonDir = out;
      imgDir = out.resolve("img");
      md = out.resolve("BENCHMARKS-harness.md");
      imgLink = "img/";
    }
    Files.createDirectories(jsonDir.resolve("results"));
    Files.createDirectories(imgDir);

    ScenarioContext context = ScenarioContext.of(smoke, imgDir, imgLink);
    Scenarios scenarios = new Scenarios(context);
    ListenerScenarios listeners = new ListenerScenarios(context);
    EndToEndScenarios endToEnd = new EndToEndScenarios(context);
    ScaleScenarios scale = new ScaleScenarios(context);
    RemoteScenarios remote = new RemoteScenarios(context);
    ProducerScenario producers = new ProducerScenario(context);
    AdaptiveDelayScenario adaptive = new AdaptiveDelayScenario(context);
    Map<String, Object> env = environment(smoke, args);
    Map<String, Object> results = new LinkedHashMap<>();
    Map<String, String> blocks = new LinkedHashMap<>();
    Map<String, List<Summary.Row>> summary = new LinkedHashMap<>();
    for (String id : ORDER) {
      if (!only.contains(id)) {
        continue;
      }
      System.out.println("== " + id + " ==");
      String loadBefore = loadAverage();
      long t0 = System.nanoTime();
      Result r;
      try {
        r = switch (id) {
          case "P1" -> scenarios.p1();
          case "P2" -> scenarios.p2();
          case "P3" -> scenarios.p3();
          case "P4" -> scenarios.p4();
          case "P5" -> scenarios.p5();
          case "P6" -> scenarios.p6();
          case "P7" -> scenarios.p7();
          case "CATALOG" -> scenarios.catalog();
          case "P8" -> producers.p8();
          case "P9" -> listeners.p9();
          case "P9R" -> listeners.p9Replay();
          case "P10" -> endToEnd.p10();
          case "SCALE" -> scale.scale();
          case "CATALOG10M" -> scale.catalog10m();
          case "S3COST" -> remote.s3Cost();
          case "P10X" -> remote.p10OtherProcess();
          case "ADAPTIVE" -> adaptive.run();
          default -> throw new IllegalStateException(id);
        };
      } catch (Exception | AssertionError e) {
        e.printStackTrace();
        r = new Result(id, id + " (failed)");
        r.put("error", String.valueOf(e));
        r.line("**The scenario failed:** `" + e + "`");
        r.check(id, "failed: " + e.getClass().getSimpleName(), null);
      }
      double secs = (System.nanoTime() - t0) / 1e9;
      String loadAfter = loadAverage();
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("title", r.title);
      entry.put("seconds", Data.round(secs, 1));
      entry.put("load_before", loadBefore);
      entry.put("load_after", loadAfter);
      List<Map<String, Object>> checks = new ArrayList<>();
      for (Result.Check c : r.checks) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("target", c.target());
        m.put("figure", c.figure());
        m.put("met", c.met());
        checks.add(m);
      }
      entry.put("checks", checks);
      entry.put("images", r.images);
      entry.put("data", r.data);
      results.put(id, entry);
      Map<String, Object> single = new LinkedHashMap<>();
      single.put("environment", env);
      single.put(id, entry);
      Files.writeString(jsonDir.resolve("results/" + id + ".json"), Json.write(single) + "\n");
      blocks.put(id, block(r, env, secs, loadBefore, loadAfter, smoke));
      String run = String.valueOf(env.get("date")).replace('T', ' ').replaceAll(":\\d\\dZ$", "") + ", load "
          + loadBefore + " → " + loadAfter + (smoke ? " (smoke sizes: not a measurement)" : "");
      summary.put(id, Summary.rows(r, run));
      for (Result.Check c : r.checks) {
        System.out.printf("  %-70s %s  [%s]%n", c.target(), c.figure(),
            c.met() == null ? "-" : c.met() ? "met" : "NOT met");
      }
      System.out.printf("  (%.1f s)%n", secs);
    }
    // results.json: the latest run of every scenario (this run's, and earlier runs' for the others)
    Path json = jsonDir.resolve("results.json");
    StringBuilder all = new StringBuilder("{\n  \"latest_run\": ").append(Json.write(env).replace("\n", "\n  "))
        .append(",\n  \"scenarios\": {");
    boolean first = true;
    for (String id : ORDER) {
      Path f = jsonDir.resolve("results/" + id + ".json");
      if (Files.exists(f)) {
        all.append(first ? "\n" : ",\n").append("    \"").append(id).append("\": ")
            .append(Files.readString(f).trim().replace("\n", "\n    "));
        first = false;
      }
    }
    all.append("\n  }\n}\n");
    Files.writeString(json, all.toString());
    updateMarkdown(md, blocks, out != null);
    Files.writeString(md, Summary.update(Files.readString(md), summary, ORDER), StandardCharsets.UTF_8);
    System.out.println("results: " + json);
    System.out.println("markdown: " + md);
    return json;
  }

  private static String block(Result r, Map<String, Object> env, double secs, String loadBefore, String loadAfter,
      boolean smoke) {
    StringBuilder b = new StringBuilder();
    b.append("<!-- harness:").append(r.id).append(":begin -->\n");
    b.append("### ").append(r.title).append("\n\n");
    b.append("Run ").append(env.get("date")).append(", commit `").append(env.get("commit")).append("`, ")
        .append(String.format("%.0f s", secs)).append(", load average ").append(loadBefore).append(" → ")
        .append(loadAfter).append(smoke ? " (**smoke sizes: not a measurement**)" : "").append(". Reproduce: `")
        .append(command(r.id, smoke)).append("`\n\n");
    b.append("| target | figure | met? |\n|---|---|---|\n");
    for (Result.Check c : r.checks) {
      b.append("| ").append(c.target()).append(" | ").append(c.figure()).append(" | ")
          .append(c.met() == null ? "—" : c.met() ? "**met**" : "**not met**").append(" |\n");
    }
    b.append('\n').append(r.details);
    b.append("<!-- harness:").append(r.id).append(":end -->\n");
    return b.toString();
  }

  static String command(String id, boolean smoke) {
    return "java -cp objlog-benchmarks/target/objlog-benchmarks.jar dev.objlog.benchmarks.Harness "
        + (smoke ? "--smoke " : "") + "--only " + id;
  }

  /** Replaces (or adds) each scenario's block inside the harness section, keeping the others. */
  static void updateMarkdown(Path md, Map<String, String> blocks, boolean fresh) throws IOException {
    String text = !fresh && Files.exists(md) ? Files.readString(md) : "";
    String section;
    String before;
    String after;
    int b = text.indexOf(BEGIN);
    int e = text.indexOf(END);
    if (b >= 0 && e > b) {
      before = text.substring(0, b);
      section = text.substring(b + BEGIN.length(), e);
      after = text.substring(e + END.length());
    } else {
      before = text.isEmpty() ? "# Harness figures\n\n" : text.endsWith("\n") ? text + "\n" : text + "\n\n";
      section = "";
      after = "\n";
    }
    Map<String, String> existing = new LinkedHashMap<>();
    Matcher m = Pattern.compile("<!-- harness:([A-Z0-9]+):begin -->.*?<!-- harness:\\1:end -->\n?", Pattern.DOTALL)
        .matcher(section);
    while (m.find()) {
      existing.put(m.group(1), m.group());
    }
    existing.putAll(blocks);
    StringBuilder s = new StringBuilder(BEGIN).append("\n");
    s.append("<!-- Generated by dev.objlog.benchmarks.Harness; edit outside the markers. -->\n\n");
    for (String id : ORDER) {
      String blk = existing.get(id);
      if (blk != null) {
        s.append(blk.endsWith("\n") ? blk : blk + "\n").append('\n');
      }
    }
    s.append(END);
    Files.writeString(md, before + s + after, StandardCharsets.UTF_8);
  }

  private static Map<String, Object> environment(boolean smoke, String[] args) {
    Map<String, Object> env = new LinkedHashMap<>();
    env.put("date", DateTimeFormatter.ISO_INSTANT.format(Instant.now().atOffset(ZoneOffset.UTC).toInstant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS)));
    env.put("commit", git("rev-parse", "--short", "HEAD") + (git("status", "--porcelain", "--", ".", ":!docs").isBlank() ? "" : "+dirty"));
    env.put("cpu", cpuModel());
    env.put("cpus", Runtime.getRuntime().availableProcessors());
    env.put("max_heap_mib", Runtime.getRuntime().maxMemory() >> 20);
    env.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
    env.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
    env.put("smoke", smoke);
    env.put("args", Arrays.asList(args));
    return env;
  }

  private static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException e) {
      // not Linux
    }
    return System.getProperty("os.arch");
  }

  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0];
    } catch (IOException e) {
      return "?";
    }
  }

  private static String git(String... args) {
    try {
      List<String> cmd = new ArrayList<>();
      cmd.add("git");
      cmd.addAll(Arrays.asList(args));
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      return p.waitFor() == 0 ? s : "unknown";
    } catch (IOException | InterruptedException e) {
      return "unknown";
    }
  }

  /** A small JSON writer for maps, lists, strings, numbers, booleans and null. */
  static final class Json {
    private Json() {}

    static String write(Object o) {
      StringBuilder b = new StringBuilder();
      write(b, o, "");
      return b.toString();
    }

    private static void write(StringBuilder b, Object o, String indent) {
      if (o == null) {
        b.append("null");
      } else if (o instanceof Map<?, ?> m) {
        if (m.isEmpty()) {
          b.append("{}");
          return;
        }
        b.append("{\n");
        int i = 0;
        for (Map.Entry<?, ?> e : m.entrySet()) {
          b.append(indent).append("  ");
          string(b, String.valueOf(e.getKey()));
          b.append(": ");
          write(b, e.getValue(), indent + "  ");
          b.append(++i < m.size() ? ",\n" : "\n");
        }
        b.append(indent).append('}');
      } else if (o instanceof Collection<?> c) {
        boolean simple = c.stream().allMatch(x -> x == null || x instanceof Number || x instanceof Boolean);
        b.append('[');
        int i = 0;
        for (Object x : c) {
          if (!simple) {
            b.append('\n').append(indent).append("  ");
          }
          write(b, x, indent + "  ");
          if (++i < c.size()) {
            b.append(simple ? ", " : ",");
          }
        }
        if (!simple && !c.isEmpty()) {
          b.append('\n').append(indent);
        }
        b.append(']');
      } else if (o instanceof Double d) {
        b.append(d.isNaN() || d.isInfinite() ? "null" : d.toString());
      } else if (o instanceof Float f) {
        b.append(f.isNaN() || f.isInfinite() ? "null" : f.toString());
      } else if (o instanceof Number || o instanceof Boolean) {
        b.append(o);
      } else {
        string(b, o.toString());
      }
    }

    private static void string(StringBuilder b, String s) {
      b.append('"');
      for (int i = 0; i < s.length(); i++) {
        char ch = s.charAt(i);
        switch (ch) {
          case '"' -> b.append("\\\"");
          case '\\' -> b.append("\\\\");
          case '\n' -> b.append("\\n");
          case '\t' -> b.append("\\t");
          case '\r' -> b.append("\\r");
          default -> {
            if (ch < 0x20) {
              b.append(String.format("\\u%04x", (int) ch));
            } else {
              b.append(ch);
            }
          }
        }
      }
      b.append('"');
    }
  }
}
