package dev.objlog.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/** PNG charts of the harness figures, drawn with XChart. */
final class Charts {
  private Charts() {}

  static {
    System.setProperty("java.awt.headless", "true");
  }

  /** Grouped bars: one group per category, one bar per series. */
  static void bars(Path file, String title, String yTitle, List<String> categories,
      Map<String, List<Double>> series) throws IOException {
    CategoryChart chart = new CategoryChartBuilder().width(900).height(450).title(title)
        .yAxisTitle(yTitle).build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
    chart.getStyler().setXAxisLabelRotation(categories.size() > 4 ? 20 : 0);
    chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
    series.forEach((name, values) -> chart.addSeries(name, categories, values));
    save(chart, file);
  }

  /** Lines: each series is {x[], y[]}. */
  static void lines(Path file, String title, String xTitle, String yTitle, Map<String, double[][]> series,
      boolean logX) throws IOException {
    XYChart chart = new XYChartBuilder().width(900).height(450).title(title).xAxisTitle(xTitle)
        .yAxisTitle(yTitle).build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
    chart.getStyler().setXAxisLogarithmic(logX);
    chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
    series.forEach((name, xy) -> chart.addSeries(name, xy[0], xy[1]));
    save(chart, file);
  }

  private static void save(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, Path file) throws IOException {
    Files.createDirectories(file.getParent());
    String name = file.toString();
    if (name.endsWith(".png")) {
      name = name.substring(0, name.length() - 4);
    }
    BitmapEncoder.saveBitmap(chart, name, BitmapEncoder.BitmapFormat.PNG);
  }
}
