package dev.objlog.store.filesystem;

import dev.objlog.store.PermanentStoreException;

/**
 * Which keys can be files under the root. Every rule keeps a key from meaning something other than
 * "this one regular file": no absolute or escaping paths, nothing that collides with the store's
 * own bookkeeping or temporary files.
 */
final class KeyRules {
  static final String BOOKKEEPING_DIR = ".objlog";
  static final String TEMP_SUFFIX = ".tmp";

  private KeyRules() {}

  /** Why {@code key} cannot be stored, or {@code null} when it can. */
  static String problem(String key) {
    if (key.isEmpty()) {
      return "it is empty";
    }
    if (key.startsWith("/")) {
      return "it is absolute (starts with '/'); keys are relative to the store's root";
    }
    if (key.indexOf('\\') >= 0) {
      return "it contains a backslash; use '/' to separate folders";
    }
    if (key.indexOf('\0') >= 0) {
      return "it contains a NUL character";
    }
    String[] segments = key.split("/", -1);
    for (String segment : segments) {
      if (segment.isEmpty()) {
        return "it has an empty path segment (a leading, trailing or doubled '/')";
      }
      if (segment.equals(".") || segment.equals("..")) {
        return "it has a '" + segment + "' segment";
      }
      if (segment.endsWith(TEMP_SUFFIX)) {
        return "a segment ends in '" + TEMP_SUFFIX + "', which the store reserves for temporary files";
      }
    }
    if (segments[0].equals(BOOKKEEPING_DIR)) {
      return "it is under '" + BOOKKEEPING_DIR + "/', where the store keeps its bookkeeping";
    }
    return null;
  }

  static void check(String key) {
    String problem = problem(key);
    if (problem != null) {
      throw new PermanentStoreException(
          "the filesystem store cannot hold the key '" + printable(key) + "': " + problem);
    }
  }

  /** The key as it may appear in a message: control characters escaped. */
  static String printable(String key) {
    StringBuilder out = new StringBuilder(key.length());
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c < 0x20 || c == 0x7F) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
