package dev.objlog.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What one harness scenario measured: figures for the results file, checks against targets, prose. */
final class Result {

  /** One target and the figure measured against it; {@code met} is null when not measured. */
  record Check(String target, String figure, Boolean met) {}

  final String id;
  final String title;
  final Map<String, Object> data = new LinkedHashMap<>();
  final List<Check> checks = new ArrayList<>();
  final StringBuilder details = new StringBuilder();
  final List<String> images = new ArrayList<>();
  /** The scenario's lines of the summary table; none: one line per check that has a verdict. */
  final List<Check> summary = new ArrayList<>();

  Result(String id, String title) {
    this.id = id;
    this.title = title;
  }

  Result put(String key, Object value) {
    data.put(key, value);
    return this;
  }

  Result check(String target, String figure, Boolean met) {
    checks.add(new Check(target, figure, met));
    return this;
  }

  /** A line of the summary table at the top of docs/BENCHMARKS.md: one per target. */
  Result summary(String target, String figure, Boolean met) {
    summary.add(new Check(target, figure, met));
    return this;
  }

  Result line(String text) {
    details.append(text).append('\n');
    return this;
  }
}
