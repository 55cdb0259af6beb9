package dev.objlog.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/** Keeps an example printed in a doc page the same as the test code that runs it. */
final class DocExamples {
  private DocExamples() {}

  /**
   * The lines of {@code source} between {@code // --- <marker>: begin} and {@code ... end}, without
   * their common indentation, appear as they are in {@code doc}.
   */
  static void assertPrinted(Path source, String marker, Path doc) throws IOException {
    List<String> lines = Files.readAllLines(source);
    int begin = indexOf(lines, "// --- " + marker + ": begin");
    int end = indexOf(lines, "// --- " + marker + ": end");
    List<String> block = lines.subList(begin + 1, end);
    int indent = block.stream().filter(l -> !l.isBlank())
        .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
    String example = block.stream().map(l -> l.isBlank() ? "" : l.substring(indent)).collect(Collectors.joining("\n"));
    assertThat(Files.readString(doc)).as("%s prints the example of %s unchanged", doc, source).contains(example);
  }

  private static int indexOf(List<String> lines, String marker) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).strip().equals(marker)) {
        return i;
      }
    }
    throw new AssertionError("no line \"" + marker + "\"");
  }
}
