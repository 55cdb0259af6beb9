package dev.objlog.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sample as the {@code aot} profile builds it (on by default; run by Failsafe after {@code
 * package}): the repackaged jar holds the code {@code process-aot} generated, and the narrated
 * demo passes when the jar runs on the JVM in AOT mode ({@code -Dspring.aot.enabled=true}). On
 * the JVM reflection is not restricted, so a missing hint cannot fail the run itself: the second
 * test checks that the hints the demo's reflective calls need are in the metadata a native image
 * would be built from.
 */
class SampleAotModeIT {
  /** Where process-aot writes the native-image metadata of this module (Spring Framework 7). */
  private static final String METADATA = "META-INF/native-image/dev.objlog/objlog-sample-app/reachability-metadata.json";

  @Test
  void theNarratedDemoPassesFromTheAotProcessedJar(@TempDir Path dir) throws Exception {
    Path jar = Path.of(Objects.requireNonNull(System.getProperty("objlog.sample.jar"),
        "objlog.sample.jar is set by Failsafe in the aot profile: run this test with verify, not -Dtest"));
    Path log = dir.resolve("sample.log");
    Process sample = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dspring.aot.enabled=true", "-jar", jar.toString(),
        "--objlog.demo.exit=true", "--server.port=0", "--objlog.store.filesystem.root=" + dir.resolve("data"))
        .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    // Not a timing assertion: a guard so that a hung run fails with its output instead of hanging CI.
    boolean exited = sample.waitFor(10, TimeUnit.MINUTES);
    if (!exited) {
      sample.destroyForcibly().waitFor();
    }
    String out = Files.readString(log);
    assertThat(exited).as("the sample exits after its demo; its output:%n%s", out).isTrue();
    assertThat(sample.exitValue()).as("the sample's exit status; its output:%n%s", out).isZero();
    assertThat(out)
        .contains("Starting AOT-processed SampleApplication")
        .contains("all 200 durable in")
        .contains("resumed cursor read LSN 5..9")
        .contains("tailed 20 of 20 records")
        .containsPattern("reclaimed [1-9]\\d* objects")
        .contains(ObjlogDemo.SUMMARY_TITLE)
        .contains("records written this run: 220");
  }

  @Test
  void theJarCarriesTheHintsTheDemoNeedsInANativeImage() throws IOException {
    JsonNode metadata;
    try (InputStream in = getClass().getClassLoader().getResourceAsStream(METADATA)) {
      assertThat(in).as("%s, written by process-aot", METADATA).isNotNull();
      metadata = JsonMapper.builder().build().readTree(in);
    }
    // Each missing hint is reported, not only the first.
    SoftAssertions.assertSoftly(softly -> {
      // The container invokes the @ObjlogListener method reflectively (objlog's AOT processor).
      softly.assertThat(methods(metadata, EventsListener.class.getName()))
          .as("invocation hint of the @ObjlogListener method").contains("onEvent(java.lang.String,int,long)");
      // The template writes the demo's orders as JSON (the sample's @RegisterReflectionForBinding).
      JsonNode order = type(metadata, ObjlogDemo.DemoOrder.class.getName());
      softly.assertThat(order != null && order.path("allDeclaredConstructors").asBoolean())
          .as("binding hints (constructors) of the orders the template writes").isTrue();
      softly.assertThat(methods(metadata, ObjlogDemo.DemoOrder.class.getName()))
          .as("binding hints (accessors) of the orders the template writes")
          .contains("order()", "customer()", "amountCents()");
      // The starter's own resources (objlog's RuntimeHintsRegistrar).
      List<String> globs = new ArrayList<>();
      metadata.path("resources").forEach(r -> globs.add(r.path("glob").asString()));
      softly.assertThat(globs).as("resource hints").contains("dev/objlog/spring/listener/checkpoint/schema-*.sql");
    });
  }

  private static @Nullable JsonNode type(JsonNode metadata, String name) {
    for (JsonNode entry : metadata.path("reflection")) {
      if (name.equals(entry.path("type").asString())) {
        return entry;
      }
    }
    return null;
  }

  private static List<String> methods(JsonNode metadata, String typeName) {
    List<String> methods = new ArrayList<>();
    JsonNode type = type(metadata, typeName);
    if (type != null) {
      type.path("methods").forEach(m -> {
        List<String> parameters = new ArrayList<>();
        m.path("parameterTypes").forEach(p -> parameters.add(p.asString()));
        methods.add(m.path("name").asString() + "(" + String.join(",", parameters) + ")");
      });
    }
    return methods;
  }
}
