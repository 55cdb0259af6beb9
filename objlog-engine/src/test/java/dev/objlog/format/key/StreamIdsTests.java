package dev.objlog.format.key;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.InvalidArgumentException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class StreamIdsTests {

  @ParameterizedTest(name = "\"{0}\" -> \"{1}\"")
  @CsvSource({
    "orders, orders",
    "/orders/, orders",
    "///a/b///, a/b",
    "hosts/host-a/events, hosts/host-a/events",
    "a/.b/c.., a/.b/c..",
    "überstraße/事件, überstraße/事件",
    "a/.../b, a/.../b",
  })
  void canonicalFormStripsSurroundingSlashesOnly(String input, String canonical) {
    assertThat(StreamIds.canonical(input)).isEqualTo(canonical);
    assertThat(StreamIds.canonical(input.getBytes(StandardCharsets.UTF_8))).isEqualTo(canonical);
  }

  @ParameterizedTest(name = "\"{0}\"")
  @ValueSource(strings = {"", "/", "////"})
  void emptyIdsAreRejectedWithAHint(String input) {
    assertThatThrownBy(() -> StreamIds.canonical(input))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("empty")
        .hasMessageContaining("give the stream a name");
  }

  @ParameterizedTest(name = "\"{0}\"")
  @ValueSource(strings = {"a//b", "a/./b", "a/../b", "./a", "a/..", ".", ".."})
  void emptyAndDotSegmentsAreRejected(String input) {
    assertThatThrownBy(() -> StreamIds.canonical(input))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("segment");
  }

  @ParameterizedTest(name = "U+{0}")
  @ValueSource(ints = {0x00, 0x09, 0x0A, 0x1F, 0x7F, 0x80, 0x9F})
  void controlCharactersAreRejected(int codePoint) {
    String id = "a" + (char) codePoint + "b";
    assertThatThrownBy(() -> StreamIds.canonical(id))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining(String.format("U+%04X", codePoint))
        .hasMessageContaining("remove it");
  }

  @Test
  void characterJustOutsideTheControlRangesIsAccepted() {
    assertThat(StreamIds.canonical("a\u00A0b \u0020c~")).isEqualTo("a\u00A0b  c~");
  }

  @Test
  void lengthLimitCountsUtf8BytesAfterTrimming() {
    String max = "a".repeat(512);
    assertThat(StreamIds.canonical("/" + max + "/")).isEqualTo(max);
    assertThatThrownBy(() -> StreamIds.canonical(max + "b"))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("513 bytes")
        .hasMessageContaining("shorten");
    String twoByteChars = "é".repeat(256);
    assertThat(StreamIds.canonical(twoByteChars)).isEqualTo(twoByteChars);
    assertThatThrownBy(() -> StreamIds.canonical(twoByteChars + "x"))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("513 bytes");
  }

  /**
   * FORMAT.md 3.1 forbids exactly Go's {@code unicode.IsControl}: U+0000–U+001F and U+007F–U+009F.
   * Every other code point (all of Unicode, surrogates aside) must be accepted, as a String and
   * as UTF-8 bytes.
   */
  @Test
  void exactlyTheC0AndC1ControlsAndDelAreRefusedAmongAllCodePoints() {
    int refused = 0;
    for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
      if (cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE) {
        continue;
      }
      String id = "a" + Character.toString(cp) + "b";
      boolean control = cp <= 0x1F || (cp >= 0x7F && cp <= 0x9F);
      if (control) {
        assertThatThrownBy(() -> StreamIds.canonical(id))
            .as("U+%04X", cp)
            .isInstanceOf(InvalidArgumentException.class)
            .hasMessageContaining(String.format("U+%04X", cp))
            .hasMessageContaining("remove it");
        assertThatThrownBy(() -> StreamIds.canonical(id.getBytes(StandardCharsets.UTF_8)))
            .as("U+%04X as UTF-8", cp)
            .isInstanceOf(InvalidArgumentException.class);
        refused++;
      } else {
        assertThat(StreamIds.canonical(id)).as("U+%04X", cp).isEqualTo(id);
      }
    }
    assertThat(refused).isEqualTo(32 + 33);
  }

  @Test
  void theControlCharacterIndexPointsIntoTheIdAsGiven() {
    assertThatThrownBy(() -> StreamIds.canonical("//orders\tx"))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("U+0009")
        .hasMessageContaining("index 8");
  }

  /** The limit is 512 UTF-8 bytes; a 2-, 3- or 4-byte character may not straddle it. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"é", "€", "😀"})
  void multiByteCharactersAtTheByteLimit(String ch) {
    int width = ch.getBytes(StandardCharsets.UTF_8).length;
    String fits = "a".repeat(512 - width) + ch;
    assertThat(fits.getBytes(StandardCharsets.UTF_8)).hasSize(512);
    assertThat(StreamIds.canonical(fits)).isEqualTo(fits);
    assertThat(StreamIds.canonical(fits.getBytes(StandardCharsets.UTF_8))).isEqualTo(fits);
    String straddles = "a".repeat(512 - width + 1) + ch;
    assertThatThrownBy(() -> StreamIds.canonical(straddles))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("513 bytes")
        .hasMessageContaining("at most 512");
    assertThatThrownBy(() -> StreamIds.canonical(straddles.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("513 bytes");
    // Surrounding '/' do not count, because they are stripped first.
    assertThat(StreamIds.canonical("///" + fits + "/")).isEqualTo(fits);
  }

  @Test
  void malformedUtf8IsRejected() {
    assertThatThrownBy(() -> StreamIds.canonical(new byte[] {'a', (byte) 0xC3}))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("UTF-8");
    assertThatThrownBy(() -> StreamIds.canonical(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}))
        .as("an encoded surrogate")
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> StreamIds.canonical("a\uD800b"))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("surrogate");
    assertThat(StreamIds.canonical("emoji/\uD83D\uDE00")).isEqualTo("emoji/\uD83D\uDE00");
  }

  @Test
  void bucketAndStreamKeyDoNotValidateSoInternalEmptyIdsWork() {
    assertThat(StreamIds.bucket("", 1)).isEqualTo("189");
    assertThat(StreamIds.streamKeyHex(""))
        .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assertThat(StreamIds.bucket("x", -1)).hasSize(3);
  }
}
