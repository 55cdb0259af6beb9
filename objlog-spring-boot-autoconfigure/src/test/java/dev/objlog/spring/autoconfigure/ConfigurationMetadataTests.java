package dev.objlog.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.beans.Introspector;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The IDE metadata the configuration processor generates from {@link ObjlogProperties}: every
 * property is described, and docs/SPRING.md's property table lists exactly these properties (plus
 * the per-stream ones, which the processor cannot list under a map, taken from {@link
 * ObjlogProperties.Stream}'s bean properties) with the same defaults.
 */
class ConfigurationMetadataTests {

  private static final Pattern ROW = Pattern.compile("^\\| `(objlog\\.[^`]+)` \\| ([^|]*) \\|.*\\|\\s*$");

  /** name -> property JSON, from this module's own metadata file. */
  private static Map<String, JsonNode> properties;

  @BeforeAll
  static void readMetadata() throws IOException {
    URL classes = ObjlogProperties.class.getProtectionDomain().getCodeSource().getLocation();
    URL metadata = new URL(classes, "META-INF/spring-configuration-metadata.json");
    JsonNode root;
    try (InputStream in = metadata.openStream()) {
      root = new ObjectMapper().readTree(in);
    }
    properties = new TreeMap<>();
    for (JsonNode property : root.get("properties")) {
      properties.put(property.get("name").asString(), property);
    }
  }

  @Test
  void everyPropertyIsUnderObjlogAndDescribed() {
    assertThat(properties).containsKeys("objlog.store.type", "objlog.store.bucket", "objlog.streams");
    assertThat(properties).allSatisfy((name, property) -> {
      assertThat(name).matches("objlog\\..*|management\\.endpoint\\.objlog\\..*");
      assertThat(property.has("description")).as("description of %s", name).isTrue();
      assertThat(property.get("description").asString()).as("description of %s", name).isNotBlank();
    });
  }

  @Test
  void everyStreamPropertyIsBound() {
    assertThat(streamProperties().keySet())
        .contains("stream-id", "partitions", "writer.partitions", "writer.reopen-after-fence-loss",
            "writer.batch.max-delay", "writer.backpressure.max-pending-size", "writer.adaptive-delay.enabled",
            "writer.timeouts.catalog-publish", "retention.max-age", "retention.max-records",
            "retention.consumer-groups", "retention.snapshot-gate");
  }

  @Test
  void springMdListsExactlyTheMetadataPropertiesWithTheirDefaults() throws IOException {
    Map<String, String> documented = documentedProperties();
    Map<String, String> expected = new LinkedHashMap<>();
    properties.forEach((name, property) -> {
      if (!name.equals("objlog.streams") && !name.startsWith("management.") && !name.startsWith(DEFAULTS_WRITER)) {
        expected.put(name, defaultOf(property));
      }
    });
    streamProperties().forEach((name, value) -> expected.put("objlog.streams.<name>." + name, value));
    expected.put("objlog.streams.<name>.stream-id", "the name");
    // One row stands for objlog.defaults.writer.*: the same properties as a stream's writer.
    expected.put(DEFAULTS_WRITER + "*", "as a stream's");
    assertThat(documented).containsExactlyInAnyOrderEntriesOf(expected);
  }

  private static final String DEFAULTS_WRITER = "objlog.defaults.writer.";

  @Test
  void theDefaultsOfAutoCreatedStreamsAreTheCountAndTheWriterWhileReadersShareObjlogReader() {
    // Reader settings are not per stream, so objlog.reader.* is the reader of every stream and
    // objlog.defaults has no reader of its own (docs/SPRING.md, "Streams that are not configured").
    assertThat(properties.keySet().stream().filter(n -> n.startsWith("objlog.defaults."))
        .filter(n -> !n.startsWith(DEFAULTS_WRITER)))
        .containsExactlyInAnyOrder("objlog.defaults.auto-create", "objlog.defaults.partitions");
    assertThat(properties.keySet()).contains("objlog.reader.block-cache-size", "objlog.reader.poll-interval");
    assertThat(streamProperties().keySet()).noneMatch(n -> n.startsWith("reader."));
  }

  /** The metadata writes 4.0 as 4: compare numbers as numbers. */
  private static String sameNumber(String value) {
    return value.matches("-?\\d+(\\.\\d+)?") ? new java.math.BigDecimal(value).stripTrailingZeros().toPlainString() : value;
  }

  @Test
  void theDefaultWriterHasEveryStreamWriterPropertyWithTheSameDefault() {
    Map<String, String> defaultsWriter = new TreeMap<>();
    properties.forEach((name, property) -> {
      if (name.startsWith(DEFAULTS_WRITER)) {
        defaultsWriter.put(name.substring(DEFAULTS_WRITER.length()), sameNumber(defaultOf(property)));
      }
    });
    Map<String, String> streamWriter = new TreeMap<>();
    streamProperties().forEach((name, value) -> {
      if (name.startsWith("writer.")) {
        streamWriter.put(name.substring("writer.".length()), sameNumber(value));
      }
    });
    assertThat(defaultsWriter).isNotEmpty().containsExactlyInAnyOrderEntriesOf(streamWriter);
  }

  /**
   * The bound properties of one stream (the processor cannot list them under a map), kebab-case
   * with dotted nesting, with their defaults formatted as the processor formats them.
   */
  private static Map<String, String> streamProperties() {
    Map<String, String> out = new TreeMap<>();
    collect("", new ObjlogProperties.Stream(), out);
    return out;
  }

  private static void collect(String prefix, Object bean, Map<String, String> out) {
    for (Method getter : bean.getClass().getDeclaredMethods()) {
      String name = getter.getName();
      if (!Modifier.isPublic(getter.getModifiers()) || getter.getParameterCount() != 0
          || !(name.startsWith("get") || name.startsWith("is"))) {
        continue;
      }
      String property = Introspector.decapitalize(name.substring(name.startsWith("is") ? 2 : 3));
      String kebab = prefix + property.replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT);
      Object value;
      try {
        value = getter.invoke(bean);
      } catch (ReflectiveOperationException e) {
        throw new AssertionError(e);
      }
      boolean hasSetter = Arrays.stream(bean.getClass().getDeclaredMethods())
          .anyMatch(m -> m.getName().equals("set" + name.substring(name.startsWith("is") ? 2 : 3)));
      if (hasSetter) {
        out.put(kebab, format(value));
      } else if (value != null && value.getClass().getEnclosingClass() == ObjlogProperties.class) {
        collect(kebab + ".", value, out);
      }
    }
  }

  private static String format(Object value) {
    if (value == null || (value instanceof java.util.Collection<?> c && c.isEmpty())) {
      return "";
    }
    if (value instanceof Duration d) {
      long ms = d.toMillis();
      for (Object[] unit : new Object[][] {{86_400_000L, "d"}, {3_600_000L, "h"}, {60_000L, "m"}, {1000L, "s"}}) {
        if (ms != 0 && ms % (Long) unit[0] == 0) {
          return ms / (Long) unit[0] + (String) unit[1];
        }
      }
      return ms + "ms";
    }
    if (value instanceof DataSize size) {
      long bytes = size.toBytes();
      for (Object[] unit : new Object[][] {{1L << 30, "GB"}, {1L << 20, "MB"}, {1L << 10, "KB"}}) {
        if (bytes != 0 && bytes % (Long) unit[0] == 0) {
          return bytes / (Long) unit[0] + (String) unit[1];
        }
      }
      return bytes + "B";
    }
    return String.valueOf(value);
  }

  private static String defaultOf(JsonNode property) {
    JsonNode value = property.get("defaultValue");
    return value == null || value.isNull() ? "" : value.asString();
  }

  private static Map<String, String> documentedProperties() throws IOException {
    Path docs = Path.of(System.getProperty("objlog.docs.dir", "../docs"), "SPRING.md");
    assertThat(docs).as("docs/SPRING.md").exists();
    Map<String, String> rows = new LinkedHashMap<>();
    for (String line : Files.readAllLines(docs)) {
      Matcher m = ROW.matcher(line);
      if (m.matches()) {
        String cell = m.group(2).trim();
        String value = cell.startsWith("`") && cell.endsWith("`") ? cell.substring(1, cell.length() - 1) : cell;
        assertThat(rows.put(m.group(1), value)).as("%s listed twice in %s", m.group(1), docs).isNull();
      }
    }
    return rows;
  }
}
