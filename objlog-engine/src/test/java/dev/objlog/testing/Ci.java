package dev.objlog.testing;

import java.util.Locale;

/**
 * The one answer to "is this a CI run?" for every test in the project. {@code CI} counts as set
 * when it is {@code true}, {@code 1} or {@code yes} in any case; anything else (or nothing) means a
 * developer's machine, where tests that need an absent server or corpus skip instead of failing.
 */
public final class Ci {
  /** The environment variable CI systems set, and {@code .ci/run} sets too. */
  public static final String VARIABLE = "CI";

  private Ci() {}

  public static boolean isCi() {
    return isCiValue(System.getenv(VARIABLE));
  }

  static boolean isCiValue(String value) {
    if (value == null) {
      return false;
    }
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "true", "1", "yes" -> true;
      default -> false;
    };
  }
}
