package dev.objlog.benchmarks;

import java.nio.file.Path;

/**
 * What every scenario class of one harness run shares: smoke or full size, where charts go and how
 * the markdown links them, and the record-value pool (32 MiB of text, generated once per run).
 */
record ScenarioContext(boolean smoke, Path imgDir, String imgLink, byte[] pool) {
  static ScenarioContext of(boolean smoke, Path imgDir, String imgLink) {
    return new ScenarioContext(smoke, imgDir, imgLink, Data.textPool(smoke ? 4 << 20 : 32 << 20, 20261201L));
  }

  /** Registers {@code file} as one of the result's images and returns its markdown. */
  String img(Result r, String file) {
    r.images.add(file);
    return "![" + file + "](" + imgLink + file + ")";
  }

  /** A duration in milliseconds as the tables print it: one decimal, then " ms". */
  static String ms(double v) {
    return String.format("%.1f ms", v);
  }

  static String pct(double ratio) {
    return String.format("%.2f×", ratio);
  }
}
