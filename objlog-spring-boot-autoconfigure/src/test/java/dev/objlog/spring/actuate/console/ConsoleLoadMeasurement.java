package dev.objlog.spring.actuate.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.actuate.CountingObjectStore;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The console's benchmark (docs/BENCHMARKS.md, "Console"), run on demand, not by the suite (its
 * name does not end in Tests): 4 streams × 64 partitions on the filesystem store, every partition
 * written, the page opened in headless Chromium. Prints how long the page takes until it has drawn
 * every partition (the page's own {@code performance.mark}) and how many store requests (counted
 * by a decorator) a first load, further pages within one refresh interval, and one refresh cost.
 * It asserts request counts only, never times.
 *
 * <pre>./mvnw -B -pl objlog-spring-boot-autoconfigure -am verify -Dtest=ConsoleLoadMeasurement \
 *     -Dsurefire.failIfNoSpecifiedTests=false</pre>
 */
class ConsoleLoadMeasurement {
  private static final int STREAMS = 4;
  private static final int PARTITIONS = 64;
  private static final int RECORDS = 20;

  @TempDir
  Path root;

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class App {
    @Bean
    CountingObjectStore objectStore(@Value("${bench.root}") String root) {
      return new CountingObjectStore(FilesystemObjectStore.open(Path.of(root)));
    }
  }

  @Test
  void pageLoadAndStoreRequestsWith4StreamsOf64Partitions() throws Exception {
    List<String> properties = new ArrayList<>(List.of("server.port=0", "bench.root=" + root,
        "management.endpoints.web.exposure.include=objlog", "objlog.console.refresh=5s",
        "objlog.health.probe-interval=0"));
    for (int s = 0; s < STREAMS; s++) {
      properties.add("objlog.streams.s" + s + ".partitions=" + PARTITIONS);
    }
    try (ConfigurableApplicationContext app = new SpringApplicationBuilder(App.class).web(WebApplicationType.SERVLET)
        .properties(properties.toArray(String[]::new)).run();
        Chromium browser = Chromium.start(1280, 1000)) {
      ObjlogTemplate template = app.getBean(ObjlogTemplate.class);
      for (int s = 0; s < STREAMS; s++) {
        for (int p = 0; p < PARTITIONS; p++) {
          for (int r = 0; r < RECORDS; r++) {
            template.send("s" + s, p, "record-" + r);
          }
        }
      }
      template.flush();
      CountingObjectStore store = app.getBean(CountingObjectStore.class);
      String url = ConsoleApp.consoleUrl(app);
      int partitions = STREAMS * PARTITIONS;

      long before = store.total();
      double cold = load(browser, url, partitions);
      long coldRequests = store.total() - before;

      before = store.total();
      double warm = load(browser, url, partitions);
      HttpClient http = HttpClient.newHttpClient();
      for (int page = 0; page < 20; page++) {
        http.send(HttpRequest.newBuilder(URI.create(url.replace("/console", "?heads=cached"))).build(),
            HttpResponse.BodyHandlers.discarding());
      }
      long warmRequests = store.total() - before;

      // The open page polls every interval; count what its next three polls cost the store.
      before = store.total();
      long pollsFrom = System.nanoTime();
      String status = browser.text("#status");
      for (int poll = 0; poll < 3; poll++) {
        String previous = status;
        status = browser.waitFor("the page's next poll", d -> {
          String now = browser.text("#status");
          return now != null && !now.equals(previous) ? now : null;
        });
      }
      long pollRequests = store.total() - before;
      double pollSeconds = (System.nanoTime() - pollsFrom) / 1e9;
      // A page opened on a running application after nobody looked for longer than the interval:
      // a warm JVM, every cached head stale. (A benchmark may wait out the interval; a test may not.)
      browser.driver.get("about:blank");
      Thread.sleep(6_000);
      before = store.total();
      double stale = load(browser, url, partitions);
      long staleRequests = store.total() - before;
      System.out.printf(Locale.ROOT, "%nconsole, %d streams x %d partitions, %d records each, filesystem store%n",
          STREAMS, PARTITIONS, RECORDS);
      System.out.printf(Locale.ROOT, "  page drawn (cold cache): %.0f ms, store requests %d %s%n", cold, coldRequests,
          store.byOperation());
      System.out.printf(Locale.ROOT, "  page drawn (warm cache): %.0f ms; it and 20 more requests within the interval"
          + " cost %d store requests%n", warm, warmRequests);
      System.out.printf(Locale.ROOT, "  page drawn (warm JVM, stale cache): %.0f ms, store requests %d%n", stale,
          staleRequests);
      System.out.printf(Locale.ROOT, "  three polls of the open page over %.1f s: %d store requests (%.2f per partition)%n",
          pollSeconds, pollRequests, pollRequests / (double) partitions);
      assertThat(warmRequests).as("pages within one refresh interval").isZero();
      assertThat(coldRequests).as("the first load: one head read (plus listing) per partition")
          .isBetween((long) partitions, 2L * partitions);
    }
  }

  /** Milliseconds from navigation start until the page drew every partition. */
  private static double load(Chromium browser, String url, int partitions) {
    browser.driver.get(url);
    browser.waitFor("every partition drawn", d -> d.findElements(By.cssSelector("tr.partition")).size() == partitions);
    Object mark = browser.driver.executeScript(
        "const m = performance.getEntriesByName('objlog-console-rendered'); return m.length ? m[0].startTime : null;");
    return ((Number) mark).doubleValue();
  }
}
