package dev.objlog.coordination.json;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.CharacterEscapes;
import tools.jackson.core.io.SerializedString;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonWriteFeature;

/**
 * Builds one compact JSON object field by field, in the order the fields are added, as Go's
 * {@code encoding/json} prints a struct: no spaces, numbers as plain decimals (unsigned 64-bit
 * values above 2^63 included). Nested arrays of objects are opened and closed explicitly.
 *
 * <p>Strings are escaped in one of two ways, fixed by the documents already in buckets:
 *
 * <ul>
 *   <li>{@link #object()}: Go's {@code json.Marshal}, for documents Go also writes and every engine
 *       document: {@code \"}, {@code \\}, {@code \n}, {@code \r}, {@code \t}, any other control
 *       character and {@code <}, {@code >}, {@code &}, U+2028, U+2029 as {@code \}{@code u00xx}
 *       in lowercase hex; an unpaired surrogate becomes U+FFFD.
 *   <li>{@link #plainObject()}: the lease documents' escaping, which never had the HTML-safe
 *       escapes: the same control-character escapes, every other character as it is, and an
 *       unpaired surrogate as {@code ?}.
 * </ul>
 *
 * <p>Not thread-safe; one instance builds one object.
 */
public final class JsonWriter {
  private static final JsonFactory GO = factory(new Escapes(true));
  private static final JsonFactory PLAIN = factory(new Escapes(false));

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
  private final JsonGenerator out;
  private final char unpairedSurrogate;
  private byte @Nullable [] finished;

  private JsonWriter(JsonFactory factory, char unpairedSurrogate) {
    this.out = factory.createGenerator(ObjectWriteContext.empty(), bytes);
    this.unpairedSurrogate = unpairedSurrogate;
    out.writeStartObject();
  }

  /** An object whose strings are escaped as Go's {@code json.Marshal} escapes them. */
  public static JsonWriter object() {
    return new JsonWriter(GO, '\ufffd');
  }

  /** An object whose strings get only the escapes JSON requires (the lease documents). */
  public static JsonWriter plainObject() {
    return new JsonWriter(PLAIN, '?');
  }

  private JsonGenerator name(String name) {
    if (finished != null) {
      throw new IllegalStateException("object already finished");
    }
    return out.writeName(wellFormed(name));
  }

  public JsonWriter string(String name, String value) {
    name(name).writeString(wellFormed(value));
    return this;
  }

  /** A signed 64-bit number. */
  public JsonWriter number(String name, long value) {
    name(name).writeNumber(value);
    return this;
  }

  /** An unsigned 64-bit number (u64 fields: LSNs, epochs, versions). */
  public JsonWriter unsigned(String name, long value) {
    name(name).writeNumber(Long.toUnsignedString(value));
    return this;
  }

  public JsonWriter bool(String name, boolean value) {
    name(name).writeBoolean(value);
    return this;
  }

  /** Opens an array field; add its elements with {@link #beginObject()}, close it with {@link #endArray()}. */
  public JsonWriter beginArray(String name) {
    name(name).writeStartArray();
    return this;
  }

  /** Opens an object element of the open array; close it with {@link #endObject()}. */
  public JsonWriter beginObject() {
    out.writeStartObject();
    return this;
  }

  public JsonWriter endObject() {
    out.writeEndObject();
    return this;
  }

  public JsonWriter endArray() {
    out.writeEndArray();
    return this;
  }

  /** Closes the object and returns its UTF-8 bytes. */
  public byte[] finishBytes() {
    if (finished == null) {
      out.writeEndObject();
      out.close();
      finished = bytes.toByteArray();
    }
    return finished.clone();
  }

  /** {@link #finishBytes()} as text. */
  public String finish() {
    return new String(finishBytes(), StandardCharsets.UTF_8);
  }

  /** {@code s} with each unpaired surrogate replaced: the generator refuses them. */
  private String wellFormed(String s) {
    @Nullable StringBuilder b = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!Character.isSurrogate(c)) {
        continue;
      }
      if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
        continue;
      }
      if (b == null) {
        b = new StringBuilder(s);
      }
      b.setCharAt(i, unpairedSurrogate);
    }
    return b == null ? s : b.toString();
  }

  private static JsonFactory factory(Escapes escapes) {
    return JsonFactory.builder()
        .characterEscapes(escapes)
        .disable(JsonWriteFeature.WRITE_HEX_UPPER_CASE)
        .disable(JsonWriteFeature.ESCAPE_FORWARD_SLASHES)
        .disable(JsonWriteFeature.ESCAPE_NON_ASCII)
        .build();
  }

  /**
   * Jackson's JSON escapes less the short {@code \b} and {@code \f}: Go wrote them in the long form
   * before Go 1.22 and our documents always have; with {@code htmlSafe}, Go's escapes of {@code <},
   * {@code >}, {@code &}, U+2028, U+2029.
   */
  private static final class Escapes extends CharacterEscapes {
    private static final long serialVersionUID = 1L;
    private static final SerializableString LINE_SEPARATOR = new SerializedString("\\u2028");
    private static final SerializableString PARAGRAPH_SEPARATOR = new SerializedString("\\u2029");

    private final int[] ascii;
    private final boolean htmlSafe;

    Escapes(boolean htmlSafe) {
      this.htmlSafe = htmlSafe;
      ascii = CharacterEscapes.standardAsciiEscapesForJSON();
      ascii['\b'] = CharacterEscapes.ESCAPE_STANDARD;
      ascii['\f'] = CharacterEscapes.ESCAPE_STANDARD;
      if (htmlSafe) {
        ascii['<'] = CharacterEscapes.ESCAPE_STANDARD;
        ascii['>'] = CharacterEscapes.ESCAPE_STANDARD;
        ascii['&'] = CharacterEscapes.ESCAPE_STANDARD;
      }
    }

    @Override
    public int[] getEscapeCodesForAscii() {
      return ascii;
    }

    @Override
    public @Nullable SerializableString getEscapeSequence(int ch) {
      if (!htmlSafe) {
        return null;
      }
      return ch == '\u2028' ? LINE_SEPARATOR : ch == '\u2029' ? PARAGRAPH_SEPARATOR : null;
    }
  }
}
