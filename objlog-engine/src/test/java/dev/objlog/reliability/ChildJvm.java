package dev.objlog.reliability;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM on this test class path whose stdout lines are collected as they arrive. Public for
 * the Spring module's crash tests (through the engine's test jar).
 *
 * <p>Thread-safety: {@link #lines} is safe to read while the child runs; drive one child from one
 * thread.
 */
public final class ChildJvm implements AutoCloseable {
  public final Process process;
  public final List<String> lines = new CopyOnWriteArrayList<>();
  private final Thread pump;

  public ChildJvm(Class<?> main, String... args) throws IOException {
    this(List.of(), main, args);
  }

  /** A child with {@code jvmOptions} after the default ones (a later option wins). */
  public ChildJvm(List<String> jvmOptions, Class<?> main, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-Xshare:auto"));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
    command.addAll(List.of(args));
    process = new ProcessBuilder(command).redirectErrorStream(true).start();
    pump = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8))) {
        for (String line; (line = in.readLine()) != null; ) {
          lines.add(line);
        }
      } catch (IOException ignored) {
        // The process ended or was killed.
      }
    }, "child-output");
    pump.setDaemon(true);
    pump.start();
  }

  public boolean awaitLine(String exact, long timeoutMillis) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMillis;
    while (System.currentTimeMillis() < deadline) {
      if (lines.contains(exact)) {
        return true;
      }
      if (!process.isAlive() && !lines.contains(exact)) {
        pump.join(30_000); // the child is gone: the pump only has its last lines to read
        return lines.contains(exact);
      }
      Thread.sleep(5);
    }
    return false;
  }

  /**
   * SIGKILL on Linux; waits for the process and for the output pump to read everything the child
   * wrote before it died. Through the {@link ProcessHandle}: {@code Process.destroyForcibly()}
   * also closes our end of the pipe, which silently drops the child's last unread lines (the
   * reports of exactly the records acknowledged just before the kill).
   */
  public void kill() throws InterruptedException {
    process.toHandle().destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
    pump.join(30_000);
  }

  public int await(long seconds) throws InterruptedException {
    if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
      kill();
      throw new AssertionError("child did not finish in " + seconds + " s; output tail " + tail());
    }
    pump.join(30_000);
    return process.exitValue();
  }

  /**
   * The last 15 lines so far. Taken from a snapshot: callers build assertion messages with it while
   * the child still writes, and a view of the live list fails when a line arrives meanwhile.
   */
  public String tail() {
    List<String> snapshot = List.copyOf(lines);
    int n = snapshot.size();
    return String.valueOf(snapshot.subList(Math.max(0, n - 15), n));
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      kill();
    }
  }
}
