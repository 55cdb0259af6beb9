package dev.objlog.spring.actuate.console;

import dev.objlog.testing.Ci;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's Chromium and chromedriver driven by Selenium, with nothing downloaded at run time (the
 * system's driver binary, {@code SE_OFFLINE=true} from the build) and none of Chromium's
 * background connections (this machine's network refuses them). Under {@code CI=true} the browser
 * must be installed; elsewhere the tests that need it are skipped with a message.
 */
final class Chromium implements AutoCloseable {
  static final Path BROWSER = Path.of("/usr/bin/chromium");
  static final Path DRIVER = Path.of("/usr/bin/chromedriver");
  /** Every wait for what the page shows is bounded by this (a poll of the DOM, never a sleep). */
  static final Duration WAIT = Duration.ofSeconds(60);

  final ChromeDriver driver;
  private final Path profile;

  private Chromium(ChromeDriver driver, Path profile) {
    this.driver = driver;
    this.profile = profile;
  }

  /** Skips the calling test without Chromium (fails it under CI, where .ci/run installs it). */
  static void assumeInstalled() {
    boolean installed = Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER);
    if (!installed && Ci.isCi()) {
      Assertions.fail("CI needs Chromium for the console's browser tests: apt-get install -y chromium chromium-driver"
          + " (.ci/run does it)");
    }
    Assumptions.assumeTrue(installed, "console browser tests skipped: " + BROWSER + " and " + DRIVER
        + " are not installed (apt-get install -y chromium chromium-driver)");
  }

  static Chromium start(int width, int height) throws IOException {
    assumeInstalled();
    Path profile = Files.createTempDirectory("objlog-chromium-");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(BROWSER.toFile());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
        "--user-data-dir=" + profile, "--window-size=" + width + "," + height);
    ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(DRIVER.toString()))
        .usingAnyFreePort().build();
    ChromeDriver driver = new ChromeDriver(service, options);
    driver.manage().window().setSize(new Dimension(width, height));
    return new Chromium(driver, profile);
  }

  /** Waits (a bounded poll) until {@code condition} holds for the page and returns its value. */
  <T> T waitFor(String what, Function<WebDriver, T> condition) {
    return new WebDriverWait(driver, WAIT).withMessage(what).until(condition);
  }

  /**
   * The text of the first element matching {@code css}, or null if none does; read in one script
   * so that a re-render between finding and reading cannot interfere.
   */
  String text(String css) {
    return (String) driver.executeScript(
        "const e = document.querySelector(arguments[0]); return e ? e.innerText.trim() : null;", css);
  }

  /** A screenshot of the window under {@code target/console/}. */
  Path screenshot(String name) throws IOException {
    Path dir = Path.of("target", "console");
    Files.createDirectories(dir);
    Path file = dir.resolve(name + ".png");
    Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
    return file;
  }

  @Override
  public void close() throws IOException {
    try {
      driver.quit();
    } finally {
      try (var files = Files.walk(profile)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
