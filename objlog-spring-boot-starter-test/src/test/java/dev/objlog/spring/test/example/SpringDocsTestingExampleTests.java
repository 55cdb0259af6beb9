package dev.objlog.spring.test.example;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/SPRING.md's "Testing" example is these sources, word for word, so that the example in the
 * docs is the one that runs ({@link OrderListenerTests}).
 */
class SpringDocsTestingExampleTests {

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "java/dev/objlog/spring/test/example/OrderListener.java, java",
    "java/dev/objlog/spring/test/example/OrderListenerTests.java, java",
    "resources/application.yml, yaml"
  })
  void theTestingSectionShowsTheSourceVerbatim(String source, String fence) throws IOException {
    String docs = Files.readString(Path.of(System.getProperty("objlog.docs.dir", "../docs"), "SPRING.md"));
    String testing = docs.substring(docs.indexOf("\n## Testing\n"));
    String code = Files.readString(Path.of(System.getProperty("objlog.test.sources", "src/test"), source));
    assertThat(testing).as("docs/SPRING.md, \"Testing\"").contains("```" + fence + "\n" + code + "```\n");
  }
}
