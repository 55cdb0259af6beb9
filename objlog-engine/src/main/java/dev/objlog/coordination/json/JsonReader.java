package dev.objlog.coordination.json;

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
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Parses one JSON object strictly (RFC 8259, UTF-8, no duplicate names, no trailing data),
 * bounded in size, depth and number length. Stateless entry point; each parse is independent and
 * thread-safe.
 */
public final class JsonReader {
  /** objlog's JSON objects are small; anything larger is not one of ours. */
  public static final int MAX_BYTES = 1 << 20;

  /** Containers below the top-level object. */
  private static final int MAX_DEPTH = 16;
  private static final int MAX_NUMBER_LENGTH = 64;

  /** Jackson's defaults are strict JSON: no comments, quotes of one kind, no leading zeros or NaN. */
  private static final JsonFactory FACTORY = JsonFactory.builder().build();

  private final JsonParser parser;
  private final String what;

  private JsonReader(JsonParser parser, String what) {
    this.parser = parser;
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
      // Decoded here, not by the parser: it would guess UTF-16 or UTF-32 and skip a byte order mark.
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
    try (JsonParser parser = FACTORY.createParser(ObjectReadContext.empty(), text)) {
      JsonReader reader = new JsonReader(parser, what);
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw reader.error("expected a JSON object");
      }
      JsonObject result = reader.readObject(0);
      if (parser.nextToken() != null) {
        throw reader.error("unexpected data after the object");
      }
      return result;
    } catch (JacksonException e) {
      long offset = e.getLocation() == null ? -1 : e.getLocation().getCharOffset();
      throw new CorruptObjectException(what + ": malformed JSON at offset " + offset + ": " + e.getOriginalMessage());
    }
  }

  /** Reads the object whose start token is current. */
  private JsonObject readObject(int depth) {
    Map<String, @Nullable Object> fields = new LinkedHashMap<>();
    for (JsonToken t = parser.nextToken(); t != JsonToken.END_OBJECT; t = parser.nextToken()) {
      String name = parser.currentName();
      if (fields.containsKey(name)) {
        throw error("duplicate field \"" + name + "\"");
      }
      parser.nextToken();
      fields.put(name, readValue(depth));
    }
    return new JsonObject(fields, what);
  }

  private List<@Nullable Object> readArray(int depth) {
    List<@Nullable Object> items = new ArrayList<>();
    for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
      items.add(readValue(depth));
    }
    return items;
  }

  /** Reads the value whose first token is current; {@code depth} is that of its container. */
  private @Nullable Object readValue(int depth) {
    JsonToken t = parser.currentToken();
    if (t == null) {
      throw error("unexpected end of input");
    }
    return switch (t) {
      case START_OBJECT -> readObject(nested(depth));
      case START_ARRAY -> readArray(nested(depth));
      case VALUE_STRING -> parser.getString();
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      case VALUE_NULL -> null;
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
        String text = parser.getString();
        if (text.length() > MAX_NUMBER_LENGTH) {
          throw error("number too long");
        }
        yield new JsonObject.JsonNumber(text);
      }
      default -> throw error("unexpected " + t);
    };
  }

  private int nested(int depth) {
    if (depth + 1 > MAX_DEPTH) {
      throw error("nested too deeply");
    }
    return depth + 1;
  }

  private CorruptObjectException error(String message) {
    return new CorruptObjectException(what + ": malformed JSON at offset "
        + parser.currentTokenLocation().getCharOffset() + ": " + message);
  }
}
