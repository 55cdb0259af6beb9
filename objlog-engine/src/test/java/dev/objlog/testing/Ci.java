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

  /**
   * A setting of a test suite, from the environment variable {@code name} or else the system
   * property of the same name in lower case with dots ({@code OBJLOG_SIM_SEEDS} → {@code
   * objlog.sim.seeds}), trimmed; empty when neither is set (blank counts as unset).
   */
  public static java.util.Optional<String> setting(String name) {
    String value = System.getenv(name);
    if (value == null || value.isBlank()) {
      value = System.getProperty(name.toLowerCase(Locale.ROOT).replace('_', '.'));
    }
    return value == null || value.isBlank() ? java.util.Optional.empty() : java.util.Optional.of(value.trim());
  }

  /**
   * A suite's size: the {@link #setting} {@code name}, else {@code ciDefault} under CI and {@code
   * localDefault} otherwise; a negative number is refused.
   */
  public static int suiteSize(String name, int ciDefault, int localDefault) {
    int n = setting(name).map(Integer::parseInt).orElse(isCi() ? ciDefault : localDefault);
    if (n < 0) {
      throw new IllegalArgumentException(name + " must not be negative, was " + n);
    }
    return n;
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
