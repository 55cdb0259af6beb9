package dev.objlog.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class MetricNamesDocumentationTests {

  @Test
  void everyMeterNameIsDocumentedInMetricsMd() throws Exception {
    String text = Files.readString(Path.of("").toAbsolutePath().getParent().resolve("docs/METRICS.md"));
    int names = 0;
    for (Field field : MetricNames.class.getFields()) {
      if (Modifier.isStatic(field.getModifiers()) && !field.getName().startsWith("TAG_")) {
        names++;
        assertThat(text).as("docs/METRICS.md documents %s", field.getName())
            .contains("`" + field.get(null) + "`");
      }
    }
    assertThat(names).as("meter names found").isGreaterThan(10);
  }
}
