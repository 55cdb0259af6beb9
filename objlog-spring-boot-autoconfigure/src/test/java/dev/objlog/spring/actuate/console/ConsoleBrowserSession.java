package dev.objlog.spring.actuate.console;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.springframework.context.ConfigurableApplicationContext;

/** One {@link ConsoleApp} and one browser for all the tests of a class. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ConsoleBrowserSession {
  private final String[] properties;
  Path root;
  ConfigurableApplicationContext app;
  Chromium browser;

  ConsoleBrowserSession(String... properties) {
    this.properties = properties;
  }

  @BeforeAll
  void start() throws IOException {
    Chromium.assumeInstalled();
    root = Files.createTempDirectory("objlog-console-");
    app = ConsoleApp.start(root, properties);
    browser = Chromium.start(1280, 1000);
  }

  @AfterAll
  void stop() throws IOException {
    try {
      if (browser != null) {
        browser.close();
      }
    } finally {
      if (app != null) {
        app.close();
      }
      if (root != null) {
        try (var files = Files.walk(root)) {
          files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
      }
    }
  }
}
