package dev.objlog.internal.json;

import dev.objlog.CorruptObjectException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Parses one JSON object strictly (RFC 8259, UTF-8, no duplicate names, no trailing data),
 * bounded in size and depth. Stateless entry point; each parse is independent and thread-safe.
 */
public final class JsonReader {
  /** objlog's JSON objects are small; anything larger is not one of ours. */
  public static final int MAX_BYTES = 1 << 20;

  private static final int MAX_DEPTH = 16;

  private final String text;
  private final String what;
  private int pos;

  private JsonReader(String text, String what) {
    this.text = text;
    this.what = what;
  }

  /**
   * @param what names the object in error messages, e.g. {@code "retention mailbox p3"}
   */
  public static JsonObject parseObject(byte[] bytes, String what) {
    if (bytes.length > MAX_BYTES) {
      throw new CorruptObjectException(what + ": " + bytes.length + " bytes is larger than any objlog JSON object");
    }
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw new CorruptObjectException(what + ": not valid UTF-8");
    }
    return parseObject(text, what);
  }

  public static JsonObject parseObject(String text, String what) {
    JsonReader reader = new JsonReader(text, what);
    reader.skipWhitespace();
    if (reader.peek() != '{') {
      throw reader.error("expected a JSON object");
    }
    JsonObject result = reader.readObject(0);
    reader.skipWhitespace();
    if (reader.pos != text.length()) {
      throw reader.error("unexpected data after the object");
    }
    return result;
  }

  private @Nullable Object readValue(int depth) {
    skipWhitespace();
    char c = peek();
    return switch (c) {
      case '{' -> readObject(depth + 1);
      case '[' -> readArray(depth + 1);
      case '"' -> readString();
      case 't' -> literal("true", Boolean.TRUE);
      case 'f' -> literal("false", Boolean.FALSE);
      case 'n' -> literal("null", null);
      default -> {
        if (c == '-' || (c >= '0' && c <= '9')) {
          yield readNumber();
        }
        throw error("unexpected character");
      }
    };
  }

  private JsonObject readObject(int depth) {
    if (depth > MAX_DEPTH) {
      throw error("nested too deeply");
    }
    expect('{');
    Map<String, @Nullable Object> fields = new LinkedHashMap<>();
    skipWhitespace();
    if (peek() == '}') {
      pos++;
      return new JsonObject(fields, what);
    }
    while (true) {
      skipWhitespace();
      if (peek() != '"') {
        throw error("expected a field name");
      }
      String name = readString();
      skipWhitespace();
      expect(':');
      if (fields.containsKey(name)) {
        throw error("duplicate field \"" + name + "\"");
      }
      fields.put(name, readValue(depth));
      skipWhitespace();
      char c = next();
      if (c == '}') {
        return new JsonObject(fields, what);
      }
      if (c != ',') {
        throw error("expected ',' or '}'");
      }
    }
  }

  private List<@Nullable Object> readArray(int depth) {
    if (depth > MAX_DEPTH) {
      throw error("nested too deeply");
    }
    expect('[');
    List<@Nullable Object> items = new ArrayList<>();
    skipWhitespace();
    if (peek() == ']') {
      pos++;
      return items;
    }
    while (true) {
      items.add(readValue(depth));
      skipWhitespace();
      char c = next();
      if (c == ']') {
        return items;
      }
      if (c != ',') {
        throw error("expected ',' or ']'");
      }
    }
  }

  private String readString() {
    expect('"');
    StringBuilder sb = new StringBuilder();
    while (true) {
      char c = next();
      if (c == '"') {
        return sb.toString();
      }
      if (c < 0x20) {
        throw error("control character in string");
      }
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      char e = next();
      switch (e) {
        case '"', '\\', '/' -> sb.append(e);
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case 'n' -> sb.append('\n');
        case 'r' -> sb.append('\r');
        case 't' -> sb.append('\t');
        case 'u' -> {
          int v = 0;
          for (int i = 0; i < 4; i++) {
            int d = Character.digit(next(), 16);
            if (d < 0) {
              throw error("bad \\u escape");
            }
            v = v << 4 | d;
          }
          sb.append((char) v);
        }
        default -> throw error("bad escape");
      }
    }
  }

  private JsonObject.JsonNumber readNumber() {
    int start = pos;
    if (peek() == '-') {
      pos++;
    }
    if (peek() == '0') {
      pos++;
    } else {
      requireDigits();
    }
    if (pos < text.length() && text.charAt(pos) == '.') {
      pos++;
      requireDigits();
    }
    if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
      pos++;
      if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
        pos++;
      }
      requireDigits();
    }
    if (pos - start > 64) {
      throw error("number too long");
    }
    return new JsonObject.JsonNumber(text.substring(start, pos));
  }

  private void requireDigits() {
    int start = pos;
    while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
      pos++;
    }
    if (pos == start) {
      throw error("expected a digit");
    }
  }

  private @Nullable Object literal(String word, @Nullable Object value) {
    if (!text.startsWith(word, pos)) {
      throw error("unexpected literal");
    }
    pos += word.length();
    return value;
  }

  private void skipWhitespace() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  private char peek() {
    if (pos >= text.length()) {
      throw error("unexpected end of input");
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
      throw error("expected '" + c + "'");
    }
  }

  private CorruptObjectException error(String message) {
    return new CorruptObjectException(what + ": malformed JSON at offset " + pos + ": " + message);
  }
}
