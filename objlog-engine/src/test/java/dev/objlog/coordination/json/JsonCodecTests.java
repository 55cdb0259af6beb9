package dev.objlog.coordination.json;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.CorruptObjectException;
import java.util.List;
import java.util.SplittableRandom;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonCodecTests {

  @Test
  void writesCompactFieldsInOrderWithUnsignedNumbers() {
    String json = JsonWriter.object()
        .unsigned("version", 1)
        .string("stream_id", "demo/orders")
        .unsigned("partition", 7)
        .unsigned("next_lsn", -2L)
        .number("created_unix_ms", -5)
        .bool("has_pending_floor", true)
        .finish();
    assertThat(json).isEqualTo(
        "{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":7,\"next_lsn\":18446744073709551614,"
            + "\"created_unix_ms\":-5,\"has_pending_floor\":true}");
  }

  @Test
  void escapesStringsTheWayGoEncodingJsonDoes() {
    String json = JsonWriter.object().string("s", "a\"b\\c\n\t\u0001<&>\u2028é").finish();
    assertThat(json).isEqualTo("{\"s\":\"a\\\"b\\\\c\\n\\t\\u0001\\u003c\\u0026\\u003e\\u2028é\"}");
    assertThat(JsonReader.parseObject(json, "t").string("s")).isEqualTo("a\"b\\c\n\t\u0001<&>\u2028é");
  }

  @Test
  void readsUnsignedValuesAboveTwoToTheFiftyThree() {
    JsonObject o = JsonReader.parseObject(
        "{ \"a\": 18446744073709551615, \"b\": 9007199254740993, \"c\": 0 }".getBytes(UTF_8), "t");
    assertThat(o.unsigned("a")).isEqualTo(-1L);
    assertThat(o.unsigned("b")).isEqualTo(9007199254740993L);
    assertThat(o.unsigned("c")).isZero();
    assertThat(o.unsigned("missing", 42)).isEqualTo(42);
  }

  @Test
  void rejectsValuesOutOfRangeOrOfTheWrongType() {
    JsonObject o = JsonReader.parseObject(
        "{\"big\":18446744073709551616,\"neg\":-1,\"frac\":1.5,\"s\":\"x\",\"n\":null}", "mailbox");
    assertThatThrownBy(() -> o.unsigned("big")).isInstanceOf(CorruptObjectException.class).hasMessageContaining("64 bits");
    assertThatThrownBy(() -> o.unsigned("neg")).isInstanceOf(CorruptObjectException.class);
    assertThatThrownBy(() -> o.unsigned("frac")).isInstanceOf(CorruptObjectException.class);
    assertThatThrownBy(() -> o.unsigned("s")).isInstanceOf(CorruptObjectException.class).hasMessageContaining("mailbox");
    assertThatThrownBy(() -> o.string("n")).isInstanceOf(CorruptObjectException.class).hasMessageContaining("missing");
    assertThatThrownBy(() -> o.requireOnly(Set.of("big"))).hasMessageContaining("unknown field");
  }

  @Test
  void rejectsMalformedDocuments() {
    for (String bad : List.of("", "[]", "{", "{\"a\":1,}", "{\"a\":1}x", "{\"a\":1,\"a\":2}", "{\"a\":01}",
        "{\"a\":tru}", "{\"a\":\"\u0001\"}", "{\"a\":\"\\x\"}", "{a:1}", "{\"a\":-}", "{\"a\":1.}")) {
      assertThatThrownBy(() -> JsonReader.parseObject(bad, "t")).as(bad).isInstanceOf(CorruptObjectException.class);
    }
    assertThatThrownBy(() -> JsonReader.parseObject(new byte[] {'{', '"', (byte) 0xC3, '"', ':', '1', '}'}, "t"))
        .isInstanceOf(CorruptObjectException.class).hasMessageContaining("UTF-8");
    assertThatThrownBy(() -> JsonReader.parseObject("{\"a\":".repeat(40) + "1" + "}".repeat(40), "t"))
        .isInstanceOf(CorruptObjectException.class).hasMessageContaining("deeply");
  }

  @Test
  void escapesEveryControlCharacterAndUnpairedSurrogateAsBefore() {
    StringBuilder controls = new StringBuilder();
    StringBuilder expected = new StringBuilder("{\"c\":\"");
    for (char c = 0; c < 0x20; c++) {
      controls.append(c);
      expected.append(switch (c) {
        case '\n' -> "\\n";
        case '\r' -> "\\r";
        case '\t' -> "\\t";
        default -> String.format("\\u%04x", (int) c);
      });
    }
    expected.append("\"}");
    assertThat(JsonWriter.object().string("c", controls.toString()).finish()).isEqualTo(expected.toString());
    assertThat(JsonWriter.object().string("s", "/\u007f\u2029\ud83d\ude00\ud800x\udfff").finish())
        .isEqualTo("{\"s\":\"/\u007f\\u2029\ud83d\ude00\ufffdx\ufffd\"}");
    assertThat(JsonWriter.object().string("<&>", "").finish()).as("names are escaped too")
        .isEqualTo("{\"\\u003c\\u0026\\u003e\":\"\"}");
  }

  @Test
  void writesNestedObjectArraysAndSignedNumbersSigned() {
    assertThat(JsonWriter.object().number("min", Long.MIN_VALUE).number("max", Long.MAX_VALUE)
        .unsigned("u", Long.MIN_VALUE).beginArray("list").beginObject().number("k", 1).endObject()
        .beginObject().endObject().endArray().bool("f", false).finishBytes())
        .isEqualTo(("{\"min\":-9223372036854775808,\"max\":9223372036854775807,\"u\":9223372036854775808,"
            + "\"list\":[{\"k\":1},{}],\"f\":false}").getBytes(UTF_8));
    assertThat(JsonWriter.object().finish()).isEqualTo("{}");
  }

  @Test
  void readsEveryJsonValueKindAndEscape() {
    JsonObject o = JsonReader.parseObject((" \t\r\n{\"s\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\u003C\\ud83d\\ude00\","
        + "\"t\":true,\"f\":false,\"n\":null,\"o\":{},\"a\":[],\"neg\":-0,\"big\":-12.5e+3,\"e\":1E-2} \n")
        .getBytes(UTF_8), "t");
    assertThat(o.names()).containsExactly("s", "t", "f", "n", "o", "a", "neg", "big", "e");
    assertThat(o.string("s")).isEqualTo("\"\\/\b\f\n\r\t\u00e9<\ud83d\ude00");
    assertThat(o.bool("t", false)).isTrue();
    assertThat(o.bool("f", true)).isFalse();
    assertThat(o.has("n")).isTrue();
    assertThat(o.object("o").names()).isEmpty();
    assertThat(o.list("a")).isEmpty();
    assertThat(o.signed("neg")).isZero();
    assertThatThrownBy(() -> o.unsigned("neg")).isInstanceOf(CorruptObjectException.class);
    assertThatThrownBy(() -> o.signed("big")).isInstanceOf(CorruptObjectException.class);
    assertThatThrownBy(() -> o.unsigned("e")).isInstanceOf(CorruptObjectException.class);
    assertThat(JsonReader.parseObject("{\"x\":[1,\"a\",null,[true],{\"k\":-1}]}", "t").list("x"))
        .hasSize(5);
  }

  @Test
  void numbersKeepTheirTextUpToSixtyFourCharacters() {
    String digits = "1".repeat(64);
    assertThatThrownBy(() -> JsonReader.parseObject("{\"a\":" + digits + "}", "t").unsigned("a"))
        .isInstanceOf(CorruptObjectException.class).hasMessageContaining("64 bits");
    assertThatThrownBy(() -> JsonReader.parseObject("{\"a\":" + digits + "1}", "t"))
        .isInstanceOf(CorruptObjectException.class).hasMessageContaining("number");
    assertThat(JsonReader.parseObject("{\"a\":0}", "t")
        .unsigned("a")).isZero();
    assertThat(JsonReader.parseObject("{\"a\":9223372036854775807,\"b\":-9223372036854775808}", "t").signed("b"))
        .isEqualTo(Long.MIN_VALUE);
    assertThatThrownBy(() -> JsonReader.parseObject("{\"a\":9223372036854775808}", "t").signed("a"))
        .isInstanceOf(CorruptObjectException.class);
    assertThat(JsonReader.parseObject("{\"a\":4294967295}", "t").unsignedAtMost("a", 0xFFFF_FFFFL))
        .isEqualTo(0xFFFF_FFFFL);
    assertThatThrownBy(() -> JsonReader.parseObject("{\"a\":4294967296}", "t").unsignedAtMost("a", 0xFFFF_FFFFL))
        .isInstanceOf(CorruptObjectException.class).hasMessageContaining("maximum");
  }

  @Test
  void nestingIsBoundedAtSixteenLevelsBelowTheTopObject() {
    assertThat(JsonReader.parseObject("{\"a\":".repeat(17) + "1" + "}".repeat(17), "t").has("a")).isTrue();
    assertThatThrownBy(() -> JsonReader.parseObject("{\"a\":".repeat(18) + "1" + "}".repeat(18), "t"))
        .isInstanceOf(CorruptObjectException.class).hasMessageContaining("deeply");
    assertThat(JsonReader.parseObject("{\"a\":" + "[".repeat(16) + "]".repeat(16) + "}", "t").has("a")).isTrue();
    assertThatThrownBy(() -> JsonReader.parseObject("{\"a\":" + "[".repeat(17) + "]".repeat(17) + "}", "t"))
        .isInstanceOf(CorruptObjectException.class).hasMessageContaining("deeply");
    assertThatThrownBy(() -> JsonReader.parseObject("{\"a\":" + "[".repeat(100_000), "t"))
        .isInstanceOf(CorruptObjectException.class);
  }

  @Test
  void inputIsBoundedAtOneMebibyte() {
    String filler = "{\"a\":\"";
    byte[] atLimit = (filler + "x".repeat(JsonReader.MAX_BYTES - filler.length() - 2) + "\"}").getBytes(UTF_8);
    assertThat(atLimit).hasSize(JsonReader.MAX_BYTES);
    assertThat(JsonReader.parseObject(atLimit, "t").string("a")).hasSize(JsonReader.MAX_BYTES - filler.length() - 2);
    byte[] over = java.util.Arrays.copyOf(atLimit, atLimit.length + 1);
    over[over.length - 1] = ' ';
    assertThatThrownBy(() -> JsonReader.parseObject(over, "big doc")).isInstanceOf(CorruptObjectException.class)
        .hasMessageContaining("big doc").hasMessageContaining("larger");
  }

  @ParameterizedTest
  @ValueSource(strings = {"{\"a\":+1}", "{\"a\":.5}", "{\"a\":NaN}", "{\"a\":Infinity}", "{\"a\":1e}",
      "{\"a\":'x'}", "{'a':1}", "{\"a\":1}/**/", "{\"a\":1 /**/}", "{\"a\":1}#", "{\"a\":[1,]}",
      "{\"a\":[,1]}", "{,}", "{\"a\"}", "{\"a\" 1}", "{\"a\":1}{}", "{\"a\":1} 2", "\ufeff{}",
      "\u000b{}", "{\u00a0}", "{\"a\":\"\\u12\"}", "{\"a\":\"\\uzzzz\"}", "{\"a\":\"\\'\"}",
      "{\"a\":\"x}", "{\"a\":nul}", "{\"a\":True}", "{\"a\":\"\t\"}", "{\"a\":1,\"b\":{\"c\":1,\"c\":2}}",
      "{\"a\":1,\"\\u0061\":2}", "{\"a\":[1}", "{\"a\":{]}", "{\"a\":-01}", "{\"a\":0x1}"})
  void rejectsWhatStrictJsonRejects(String bad) {
    assertThatThrownBy(() -> JsonReader.parseObject(bad, "t")).as(bad).isInstanceOf(CorruptObjectException.class)
        .hasMessageContaining("t: ");
    assertThatThrownBy(() -> JsonReader.parseObject(bad.getBytes(UTF_8), "t")).as(bad)
        .isInstanceOf(CorruptObjectException.class);
  }

  @Test
  void rejectsBytesThatAreNotUtf8EvenWhenAnotherEncodingWouldFit() {
    byte[][] bad = {
        {'{', '"', 'a', '"', ':', '"', (byte) 0xC0, (byte) 0x80, '"', '}'}, // overlong NUL
        {'{', '"', 'a', '"', ':', '"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', '}'}, // encoded surrogate
        {'{', '"', 'a', '"', ':', '"', (byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80, '"', '}'}, // > U+10FFFF
        {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, '{', '}'}, // UTF-8 byte order mark
        {0, '{', 0, '}'}, // UTF-16BE
        {'{', 0, '}', 0}, // UTF-16LE
        {(byte) 0xFE, (byte) 0xFF, 0, '{', 0, '}'},
    };
    for (byte[] b : bad) {
      assertThatThrownBy(() -> JsonReader.parseObject(b, "t")).as(java.util.HexFormat.of().formatHex(b))
          .isInstanceOf(CorruptObjectException.class);
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3})
  void randomMutationsFailOnlyWithTypedErrors(long seed) {
    byte[] base = "{\"version\":1,\"stream_id\":\"a/b\",\"partition\":3,\"list\":[1,{\"k\":\"v\"},true,null]}"
        .getBytes(UTF_8);
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < 20_000; i++) {
      byte[] mutated = base.clone();
      int edits = 1 + random.nextInt(3);
      for (int e = 0; e < edits; e++) {
        mutated[random.nextInt(mutated.length)] = (byte) random.nextInt(256);
      }
      int len = random.nextInt(4) == 0 ? random.nextInt(mutated.length + 1) : mutated.length;
      byte[] input = java.util.Arrays.copyOf(mutated, len);
      try {
        JsonObject o = JsonReader.parseObject(input, "fuzz");
        o.unsigned("partition", 0);
      } catch (CorruptObjectException expected) {
        // the only acceptable failure
      } catch (RuntimeException other) {
        throw new AssertionError("seed " + seed + " case " + i + " threw " + other, other);
      }
    }
  }
}
