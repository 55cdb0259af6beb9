package dev.objlog.store.azure;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * Azurite's blob service from {@code test-infra/azurite} (installed there by {@code npm ci}), run
 * in memory on a free loopback port for one test class. Where it is not installed the tests skip
 * with a message, except under {@code CI=true}, where they fail.
 */
final class AzuriteProcess implements AutoCloseable {
  /** The emulator's documented, public development account. */
  static final String ACCOUNT = "devstoreaccount1";

  static final String KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  private static final Pattern LISTENING = Pattern.compile("successfully listens on http://127\\.0\\.0\\.1:(\\d+)");

  private final Process process;
  private final Path workDir;
  private final int port;

  private AzuriteProcess(Process process, Path workDir, int port) {
    this.process = process;
    this.workDir = workDir;
    this.port = port;
  }

  String endpoint() {
    return "http://127.0.0.1:" + port + "/" + ACCOUNT;
  }

  int port() {
    return port;
  }

  /**
   * Whether the emulator is installed; under {@code CI=true} a missing one fails the caller. Call
   * it from {@code @BeforeAll} and skip starting when false; the tests then skip one by one
   * through {@link #assumeInstalled()} (Surefire drops the reason of a class-level skip).
   */
  static boolean installed() {
    if (Files.isExecutable(binary())) {
      return true;
    }
    if (dev.objlog.testing.Ci.isCi()) {
      fail(missingMessage() + " (CI=true: these tests must not skip)");
    }
    System.err.println("SKIPPING Azure store tests: " + missingMessage());
    return false;
  }

  /** Skips the current test, with the reason, when the emulator is not installed. */
  static void assumeInstalled() {
    if (!Files.isExecutable(binary())) {
      Assumptions.abort(missingMessage());
    }
  }

  private static String missingMessage() {
    return "Azurite is not installed at " + binary() + "; run `npm ci --no-audit --no-fund` in test-infra/azurite";
  }

  private static Path binary() {
    return azuriteDir().resolve("node_modules/.bin/azurite-blob");
  }

  static AzuriteProcess start() throws Exception {
    if (!installed()) {
      Assumptions.abort(missingMessage());
    }
    Path bin = binary();
    Path workDir = Files.createTempDirectory("objlog-azurite");
    List<String> command =
        List.of(
            bin.toString(),
            "--blobHost", "127.0.0.1",
            "--blobPort", "0",
            "--inMemoryPersistence",
            "--extentMemoryLimit", "256",
            "--disableTelemetry",
            "--skipApiVersionCheck");
    Process process =
        new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true).start();
    BlockingQueue<String> lines = new ArrayBlockingQueue<>(1024);
    List<String> seen = new ArrayList<>();
    Thread pump =
        new Thread(
            () -> {
              try (BufferedReader reader =
                  new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                  lines.offer(line);
                }
              } catch (IOException e) {
                // The process ended; the waiting side notices.
              }
            },
            "azurite-output");
    pump.setDaemon(true);
    pump.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      String line = lines.poll(200, TimeUnit.MILLISECONDS);
      if (line == null) {
        if (!process.isAlive()) {
          break;
        }
        continue;
      }
      seen.add(line);
      Matcher m = LISTENING.matcher(line);
      if (m.find()) {
        return new AzuriteProcess(process, workDir, Integer.parseInt(m.group(1)));
      }
    }
    destroyTree(process);
    deleteTree(workDir);
    throw new IllegalStateException(
        "Azurite " + (process.isAlive() ? "did not report its port within 60 s" : "exited") + "; output: " + seen);
  }

  private static Path azuriteDir() {
    String configured = System.getProperty("objlog.azurite.dir");
    if (configured != null && !configured.isBlank()) {
      return Paths.get(configured);
    }
    // Running from an IDE without Surefire's properties: find the reactor root upwards.
    for (Path dir = Paths.get("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("test-infra/azurite");
      if (Files.isDirectory(candidate)) {
        return candidate;
      }
    }
    return Paths.get("test-infra/azurite");
  }

  @Override
  public void close() throws IOException {
    try {
      destroyTree(process);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    deleteTree(workDir);
  }

  private static void destroyTree(Process process) throws InterruptedException {
    // The .bin entry may be a shell wrapper around node: stop the children too.
    List<ProcessHandle> children = process.descendants().toList();
    children.forEach(ProcessHandle::destroy);
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
    children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
