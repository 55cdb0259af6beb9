package dev.objlog.spring.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.core.ObjlogTemplateObservation;
import dev.objlog.spring.listener.ObjlogListenerObservation;
import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/METRICS.md, "Observations", names each observation its default convention names, and
 * lists every key of the documentation enum with its cardinality.
 */
class ObservationDocumentationTests {

  private static List<ObservationDocumentation> documented() {
    return Stream.<ObservationDocumentation[]>of(ObjlogTemplateObservation.values(), ObjlogListenerObservation.values())
        .flatMap(Stream::of).toList();
  }

  @Test
  void metricsPageListsEachObservationWithItsKeysAndTheirCardinality() throws Exception {
    Path page = Path.of(System.getProperty("objlog.docs.dir", "../docs"), "METRICS.md");
    List<String> lines = Files.readAllLines(page);
    for (ObservationDocumentation observation : documented()) {
      ObservationConvention<?> convention = observation.getDefaultConvention().getDeclaredConstructor().newInstance();
      String name = convention.getName();
      List<String> section = section(lines, "### `" + name + "`");
      assertThat(section).as("docs/METRICS.md has a section \"### `%s`\"", name).isNotEmpty();
      for (KeyName key : observation.getLowCardinalityKeyNames()) {
        assertThat(section).as("%s lists its low-cardinality key %s", name, key.asString())
            .anyMatch(line -> line.startsWith("| `" + key.asString() + "` | low |"));
      }
      for (KeyName key : observation.getHighCardinalityKeyNames()) {
        assertThat(section).as("%s lists its high-cardinality key %s", name, key.asString())
            .anyMatch(line -> line.startsWith("| `" + key.asString() + "` | high |"));
      }
    }
  }

  /** The lines after {@code heading} up to the next heading; empty when there is no such heading. */
  private static List<String> section(List<String> lines, String heading) {
    List<String> section = new ArrayList<>();
    boolean in = false;
    for (String line : lines) {
      if (line.startsWith("#")) {
        if (in) {
          break;
        }
        in = line.strip().equals(heading);
      } else if (in) {
        section.add(line);
      }
    }
    return section;
  }
}
