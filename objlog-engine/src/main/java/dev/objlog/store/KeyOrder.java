package dev.objlog.store;

import java.util.Comparator;

/**
 * The order in which stores list keys: their UTF-8 bytes compared unsigned, which equals Unicode
 * code-point order. {@link String#compareTo} compares UTF-16 units and disagrees for characters
 * beyond the Basic Multilingual Plane, so providers that sort or filter keys themselves use this.
 *
 * <p>Thread-safety: stateless.
 */
public final class KeyOrder {
  /** Compares keys as their UTF-8 bytes compare. */
  public static final Comparator<String> UTF8_BYTES = KeyOrder::compare;

  private KeyOrder() {}

  public static int compare(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}
