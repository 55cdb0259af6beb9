package dev.objlog.spring.listener.checkpoint;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads and writes the small flat JSON objects this package keeps in the bucket: an object whose
 * values are strings, non-negative integers, booleans or null. Anything else (nested values,
 * fractions, a trailing comma) is rejected, so a document we cannot fully understand is never
 * silently rewritten.
 */
final class FlatJson {
  private final String text;
  private int pos;

  private FlatJson(String text) {
    this.text = text;
  }

  /** Unsigned integers as {@link BigInteger}, strings as {@link String}, booleans, null as {@link FlatJson#NULL}. */
  static Map<String, Object> parse(byte[] bytes) {
    return new FlatJson(new String(bytes, StandardCharsets.UTF_8)).object();
  }

  static final Object NULL = new Object();

  static long unsigned(Map<String, Object> o, String field) {
    Object v = o.get(field);
    if (!(v instanceof BigInteger n) || n.bitLength() > 63) {
      throw new IllegalArgumentException("field " + field + " is not an integer from 0 to 2^63-1");
    }
    return n.longValueExact();
  }

  static String string(Map<String, Object> o, String field) {
    if (!(o.get(field) instanceof String s)) {
      throw new IllegalArgumentException("field " + field + " is not a string");
    }
    return s;
  }

  /** {@code s} as a JSON string literal. */
  static String quote(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }

  private Map<String, Object> object() {
    Map<String, Object> fields = new LinkedHashMap<>();
    skipSpace();
    expect('{');
    skipSpace();
    if (peek() == '}') {
      pos++;
    } else {
      while (true) {
        skipSpace();
        String name = string();
        skipSpace();
        expect(':');
        skipSpace();
        Object value = value();
        if (fields.put(name, value) != null) {
          throw error("duplicate field " + name);
        }
        skipSpace();
        char c = next();
        if (c == '}') {
          break;
        }
        if (c != ',') {
          throw error("expected ',' or '}'");
        }
      }
    }
    skipSpace();
    if (pos != text.length()) {
      throw error("trailing characters");
    }
    return fields;
  }

  private Object value() {
    char c = peek();
    if (c == '"') {
      return string();
    }
    if (c >= '0' && c <= '9') {
      int start = pos;
      while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
        pos++;
      }
      if (pos - start > 1 && text.charAt(start) == '0') {
        throw error("leading zero");
      }
      if (pos < text.length() && (text.charAt(pos) == '.' || text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
        throw error("only integers are expected");
      }
      return new BigInteger(text.substring(start, pos));
    }
    for (String literal : new String[] {"true", "false", "null"}) {
      if (text.startsWith(literal, pos)) {
        pos += literal.length();
        return literal.equals("null") ? NULL : Boolean.valueOf(literal);
      }
    }
    throw error("unexpected value");
  }

  private String string() {
    expect('"');
    StringBuilder b = new StringBuilder();
    while (true) {
      char c = next();
      if (c == '"') {
        return b.toString();
      }
      if (c < 0x20) {
        throw error("control character in string");
      }
      if (c != '\\') {
        b.append(c);
        continue;
      }
      char e = next();
      switch (e) {
        case '"', '\\', '/' -> b.append(e);
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case 'n' -> b.append('\n');
        case 'r' -> b.append('\r');
        case 't' -> b.append('\t');
        case 'u' -> {
          if (pos + 4 > text.length()) {
            throw error("short \\u escape");
          }
          try {
            b.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
          } catch (NumberFormatException ex) {
            throw error("bad \\u escape");
          }
          pos += 4;
        }
        default -> throw error("bad escape");
      }
    }
  }

  private void skipSpace() {
    while (pos < text.length() && " \t\r\n".indexOf(text.charAt(pos)) >= 0) {
      pos++;
    }
  }

  private char peek() {
    if (pos >= text.length()) {
      throw error("unexpected end");
    }
    return text.charAt(pos);
  }

  private char next() {
    char c = peek();
    pos++;
    return c;
  }

  private void expect(char c) {
    if (next() != c) {
      pos--;
      throw error("expected '" + c + "'");
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("invalid JSON at offset " + pos + ": " + what);
  }
}
