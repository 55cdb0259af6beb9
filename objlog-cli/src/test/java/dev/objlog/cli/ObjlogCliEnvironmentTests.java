package dev.objlog.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.store.ObjectStore;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tool reads the starter's settings from environment variables ({@code OBJLOG_STORE_TYPE},
 * ...), as a container or CI job would set them. The environment of a JVM cannot be changed from
 * inside it, so the tool runs in a child JVM (this test's classpath) with only the variables set
 * and no flags or files naming the store or the stream.
 */
class ObjlogCliEnvironmentTests {
  @TempDir Path root;
  @TempDir Path workingDirectory;

  @Test
  void streamsListsAStreamConfiguredOnlyThroughTheEnvironment() throws Exception {
    String streamId = "cli-env/" + UUID.randomUUID();
    try (ObjectStore store = FilesystemObjectStore.open(root)) {
      ObjlogCliTests.writeLog(store, streamId);
    }

    Path out = workingDirectory.resolve("out.txt");
    Path err = workingDirectory.resolve("err.txt");
    ProcessBuilder child = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"),
        // The test classpath has two logback configurations, and logback reports that on stdout.
        "-Dlogback.statusListenerClass=ch.qos.logback.core.status.NopStatusListener",
        ObjlogCli.class.getName(), "streams")
        .directory(workingDirectory.toFile())
        .redirectOutput(out.toFile())
        .redirectError(err.toFile());
    Map<String, String> env = child.environment();
    env.keySet().removeIf(name -> name.startsWith("OBJLOG_") || name.startsWith("SPRING_"));
    env.put("OBJLOG_STORE_TYPE", "filesystem");
    env.put("OBJLOG_STORE_FILESYSTEM_ROOT", root.toString());
    env.put("OBJLOG_STREAMS_ORDERS_STREAMID", streamId);
    env.put("OBJLOG_STREAMS_ORDERS_PARTITIONS", "2");
    Process process = child.start();
    // A safety net only: the child normally ends within seconds.
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the child JVM ended").isTrue();

    String stdout = Files.readString(out, UTF_8);
    assertThat(process.exitValue()).as(Files.readString(err, UTF_8)).isZero();
    List<String> lines = stdout.lines().toList();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).contains("stream=orders", "partition=0", "exists=true", "nextLsn=5", "segments=3");
    assertThat(lines.get(1)).contains("stream=orders", "partition=1", "exists=false");
  }
}
