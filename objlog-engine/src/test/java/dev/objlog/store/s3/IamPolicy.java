package dev.objlog.store.s3;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The part of an AWS IAM identity policy that S3 evaluates for objlog's requests: statements with
 * {@code Effect: Allow}, actions (exact, or {@code s3:*}) and resources (ARNs with {@code *} and
 * {@code ?} wildcards). Deny statements and conditions are refused rather than ignored, so a
 * documented policy this class cannot evaluate fails the test instead of passing it.
 *
 * <p>Shared with other modules' tests through the engine's test jar.
 *
 * <p>Thread-safety: immutable.
 */
public final class IamPolicy {
  record Statement(List<String> actions, List<String> resources) {}

  private final List<Statement> statements;

  private IamPolicy(List<Statement> statements) {
    this.statements = List.copyOf(statements);
  }

  public static IamPolicy parse(String json) {
    JsonNode root;
    try {
      root = new ObjectMapper().readTree(json);
    } catch (IOException e) {
      throw new IllegalArgumentException("not a JSON policy: " + e.getMessage(), e);
    }
    List<Statement> statements = new ArrayList<>();
    for (JsonNode s : root.path("Statement")) {
      if (!"Allow".equals(s.path("Effect").asText()) || s.has("Condition") || s.has("NotAction")
          || s.has("NotResource")) {
        throw new IllegalArgumentException("only plain Allow statements are supported: " + s);
      }
      statements.add(new Statement(strings(s.path("Action")), strings(s.path("Resource"))));
    }
    return new IamPolicy(statements);
  }

  /** This policy without {@code action} in any statement. */
  public IamPolicy without(String action) {
    return new IamPolicy(statements.stream()
        .map(s -> new Statement(s.actions().stream().filter(a -> !a.equals(action)).toList(), s.resources()))
        .toList());
  }

  /** Every action some statement allows, in order of appearance. */
  public List<String> actions() {
    return statements.stream().flatMap(s -> s.actions().stream()).distinct().toList();
  }

  public boolean allows(String action, String resource) {
    for (Statement s : statements) {
      boolean actionMatches = s.actions().stream().anyMatch(a -> a.equals(action) || a.equals("s3:*"));
      if (actionMatches && s.resources().stream().anyMatch(r -> glob(r).matcher(resource).matches())) {
        return true;
      }
    }
    return false;
  }

  /**
   * The policies docs/stores/s3.md documents, by role: the fenced JSON block after each {@code
   * <!-- iam-policy: role -->} marker. Read from a module folder of the repository.
   */
  public static Map<String, IamPolicy> documented() {
    String doc;
    try {
      doc = Files.readString(Path.of("..", "docs", "stores", "s3.md"));
    } catch (IOException e) {
      throw new UncheckedIOException("docs/stores/s3.md must be readable from the module folder", e);
    }
    Map<String, IamPolicy> policies = new LinkedHashMap<>();
    Matcher m = Pattern.compile("<!-- iam-policy: (\\w+) -->\\s*```json\\n(.*?)\\n```", Pattern.DOTALL).matcher(doc);
    while (m.find()) {
      policies.put(m.group(1), parse(m.group(2)));
    }
    return policies;
  }

  private static Pattern glob(String arn) {
    StringBuilder regex = new StringBuilder();
    for (char c : arn.toCharArray()) {
      regex.append(switch (c) {
        case '*' -> ".*";
        case '?' -> ".";
        default -> Pattern.quote(String.valueOf(c));
      });
    }
    return Pattern.compile(regex.toString());
  }

  private static List<String> strings(JsonNode node) {
    List<String> out = new ArrayList<>();
    if (node.isArray()) {
      node.forEach(n -> out.add(n.asText()));
    } else if (!node.isMissingNode()) {
      out.add(node.asText());
    }
    return out;
  }
}
