package dev.objlog.internal.json;

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

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3})
  void randomMutationsFailOnlyWithTypedErrors(long seed) {
    byte[] base = JsonWriter.object().unsigned("version", 1).string("stream_id", "a/b").unsigned("partition", 3)
        .raw("list", "[1,{\"k\":\"v\"},true,null]").finishBytes();
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
