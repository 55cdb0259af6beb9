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
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The IDE metadata the configuration processor generates from {@link ObjlogProperties}: every
 * property is described, and docs/SPRING.md's property table lists exactly these properties (plus
 * the per-stream ones, which the processor cannot list under a map) with the same defaults.
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
      assertThat(name).startsWith("objlog.");
      assertThat(property.has("description")).as("description of %s", name).isTrue();
      assertThat(property.get("description").asString()).as("description of %s", name).isNotBlank();
    });
  }

  @Test
  void everyStreamPropertyIsDocumentedOnItsField() {
    assertThat(streamProperties()).containsExactlyInAnyOrder("stream-id", "partitions");
  }

  @Test
  void springMdListsExactlyTheMetadataPropertiesWithTheirDefaults() throws IOException {
    Map<String, String> documented = documentedProperties();
    Map<String, String> expected = new LinkedHashMap<>();
    properties.forEach((name, property) -> {
      if (!name.equals("objlog.streams")) {
        expected.put(name, defaultOf(property));
      }
    });
    expected.put("objlog.streams.<name>.stream-id", "the name");
    expected.put("objlog.streams.<name>.partitions", String.valueOf(new ObjlogProperties.Stream().getPartitions()));
    for (String stream : streamProperties()) {
      assertThat(expected).containsKey("objlog.streams.<name>." + stream);
    }
    assertThat(documented).containsExactlyInAnyOrderEntriesOf(expected);
  }

  /** The bound properties of one stream, kebab-case, from the setters of {@link ObjlogProperties.Stream}. */
  private static List<String> streamProperties() {
    return Arrays.stream(ObjlogProperties.Stream.class.getDeclaredMethods())
        .filter(m -> Modifier.isPublic(m.getModifiers()) && m.getName().startsWith("set") && m.getParameterCount() == 1)
        .map(Method::getName)
        .map(n -> Introspector.decapitalize(n.substring(3)))
        .map(n -> n.replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT))
        .toList();
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
