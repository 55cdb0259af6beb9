package dev.objlog.format.catalog;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * Writes the pinned catformat v1 vectors and their manifest. Run it after a deliberate format
 * change and commit the result; {@code CatalogConformanceTests} fails while the pinned files and
 * this generator disagree.
 *
 * <p>Run {@link #main} with the output directory as its argument (default: the pinned folder,
 * relative to the reactor root), or let the test do it: {@code ./mvnw -o test -pl objlog-engine
 * -Dtest=CatalogConformanceTests -Dobjlog.conformance.regenerate=true}.
 */
public final class CatalogConformanceGenerator {
  private CatalogConformanceGenerator() {}

  public static void main(String[] args) throws IOException {
    Path out =
        Path.of(args.length > 0 ? args[0] : "objlog-engine/src/test/resources/conformance/catformat/v1");
    write(out);
    System.out.println("wrote " + CatalogVectors.all().size() + " catformat v1 fixtures to " + out);
  }

  static void write(Path dir) throws IOException {
    Files.createDirectories(dir);
    List<CatalogVectors.Vector> vectors = CatalogVectors.all();
    for (CatalogVectors.Vector vector : vectors) {
      Files.write(dir.resolve(vector.file()), vector.bytes());
    }
    Files.writeString(dir.resolve("manifest.json"), manifest(vectors), StandardCharsets.UTF_8);
  }

  /** The manifest text, in the reference generator's field order with two-space indentation. */
  static String manifest(List<CatalogVectors.Vector> vectors) {
    StringBuilder s = new StringBuilder();
    s.append("{\n  \"format\": \"catformat\",\n  \"version\": ")
        .append(CatalogFormat.VERSION)
        .append(",\n  \"fixtures\": [\n");
    for (int i = 0; i < vectors.size(); i++) {
      CatalogVectors.Vector v = vectors.get(i);
      s.append("    {\n");
      field(s, "name", quote(v.name()));
      field(s, "kind", quote(v.kind()));
      field(s, "file", quote(v.file()));
      field(s, "size", Integer.toString(v.bytes().length));
      field(s, "sha256", quote(sha256Hex(v.bytes())));
      if (v.isPage()) {
        field(s, "page_id", quote(CatalogFormat.pageId(v.bytes()).hex()));
      }
      s.append("      \"hash_algorithm\": ").append(quote(v.hashAlgorithm().wireName())).append('\n');
      s.append(i + 1 < vectors.size() ? "    },\n" : "    }\n");
    }
    return s.append("  ]\n}\n").toString();
  }

  private static void field(StringBuilder s, String name, String value) {
    s.append("      \"").append(name).append("\": ").append(value).append(",\n");
  }

  private static String quote(String value) {
    return '"' + value + '"';
  }

  static String sha256Hex(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
