package dev.objlog.internal.json;

import java.nio.charset.StandardCharsets;

/**
 * Builds one compact JSON object field by field, in the order the fields are added, as Go's
 * {@code encoding/json} would print a struct. Not thread-safe.
 */
public final class JsonWriter {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private final StringBuilder out = new StringBuilder(128);
  private boolean first = true;
  private boolean closed;

  private JsonWriter() {
    out.append('{');
  }

  public static JsonWriter object() {
    return new JsonWriter();
  }

  private StringBuilder name(String name) {
    if (closed) {
      throw new IllegalStateException("object already finished");
    }
    if (!first) {
      out.append(',');
    }
    first = false;
    appendString(out, name);
    return out.append(':');
  }

  public JsonWriter string(String name, String value) {
    appendString(name(name), value);
    return this;
  }

  /** A signed 64-bit number. */
  public JsonWriter number(String name, long value) {
    name(name).append(value);
    return this;
  }

  /** An unsigned 64-bit number (u64 fields: LSNs, epochs, versions). */
  public JsonWriter unsigned(String name, long value) {
    name(name).append(Long.toUnsignedString(value));
    return this;
  }

  public JsonWriter bool(String name, boolean value) {
    name(name).append(value);
    return this;
  }

  /** A nested value already rendered as JSON (an object or array built elsewhere). */
  public JsonWriter raw(String name, String json) {
    name(name).append(json);
    return this;
  }

  public String finish() {
    if (!closed) {
      out.append('}');
      closed = true;
    }
    return out.toString();
  }

  public byte[] finishBytes() {
    return finish().getBytes(StandardCharsets.UTF_8);
  }

  /** Go's escaping: {@code <>&} and U+2028/U+2029 as {@code \}u escapes, lowercase hex. */
  static void appendString(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029') {
            out.append("\\u").append(HEX[c >> 12 & 0xF]).append(HEX[c >> 8 & 0xF])
                .append(HEX[c >> 4 & 0xF]).append(HEX[c & 0xF]);
          } else if (Character.isSurrogate(c)
              && !(Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1)))
              && !(Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(s.charAt(i - 1)))) {
            out.append('\ufffd');
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
