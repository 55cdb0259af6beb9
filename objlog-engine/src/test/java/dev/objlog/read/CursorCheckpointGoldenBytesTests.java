package dev.objlog.read;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The exact bytes of the cursor checkpoint (PROTOCOLS.md §5.5), which a Go process also writes and
 * reads: Go's {@code json.Marshal} of its struct, fields in struct order, no spaces, HTML-safe
 * escaping. These vectors pin the bytes across any change of the JSON codec.
 */
class CursorCheckpointGoldenBytesTests {

  private static void assertBytes(CursorCheckpoint checkpoint, String expected) {
    assertThat(checkpoint.toJson()).as("checkpoint text").isEqualTo(expected);
    assertThat(checkpoint.toJsonBytes()).as("checkpoint bytes of " + expected).isEqualTo(expected.getBytes(UTF_8));
  }

  @Test
  void theDocumentedExampleIsWrittenByteForByte() {
    CursorCheckpoint c = CursorCheckpoint.of("demo/orders", 7, 4);
    assertBytes(c, "{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":7,\"next_lsn\":4}");
    assertThat(CursorCheckpoint.parse(c.toJsonBytes())).isEqualTo(c);
  }

  @Test
  void unsignedFieldsAboveTheSignedRangeAreWrittenAsPlainUnsignedNumbers() {
    CursorCheckpoint top = new CursorCheckpoint(-1, "a/b", -1, -1L);
    assertBytes(top, "{\"version\":4294967295,\"stream_id\":\"a/b\",\"partition\":4294967295,"
        + "\"next_lsn\":18446744073709551615}");
    assertThat(CursorCheckpoint.parse(top.toJsonBytes())).isEqualTo(top);

    CursorCheckpoint twoToThe63 = CursorCheckpoint.of("s", 0, Long.MIN_VALUE);
    assertBytes(twoToThe63, "{\"version\":1,\"stream_id\":\"s\",\"partition\":0,\"next_lsn\":9223372036854775808}");
    assertThat(CursorCheckpoint.parse(twoToThe63.toJsonBytes())).isEqualTo(twoToThe63);

    CursorCheckpoint signedMax = CursorCheckpoint.of("s", Integer.MIN_VALUE, Long.MAX_VALUE);
    assertBytes(signedMax,
        "{\"version\":1,\"stream_id\":\"s\",\"partition\":2147483648,\"next_lsn\":9223372036854775807}");
    assertThat(CursorCheckpoint.parse(signedMax.toJsonBytes())).isEqualTo(signedMax);
  }

  @Test
  void stringsAreEscapedAsGoJsonMarshalEscapesThem() {
    // Go: quote, backslash, LF, CR and tab get short escapes; other controls, <, >, & and
    // U+2028/U+2029 six-character escapes in lowercase hex; '/', DEL and other non-ASCII as they are.
    // (Go 1.22+ writes \b and \f short; we keep the long form our documents always had.)
    String id = "a\"b\\c/d\n\r\t\b\f\u0001\u001f<>&\u2028\u2029\u007f\u00e9\u20ac\ud83d\ude00";
    CursorCheckpoint c = CursorCheckpoint.of(id, 1, 2);
    assertBytes(c, "{\"version\":1,\"stream_id\":\"a\\\"b\\\\c/d\\n\\r\\t\\u0008\\u000c\\u0001\\u001f"
        + "\\u003c\\u003e\\u0026\\u2028\\u2029\u007f\u00e9\u20ac\ud83d\ude00\",\"partition\":1,\"next_lsn\":2}");
    assertThat(CursorCheckpoint.parse(c.toJsonBytes())).isEqualTo(c);
  }

  @Test
  void unpairedSurrogatesAreWrittenAsTheReplacementCharacter() {
    CursorCheckpoint c = CursorCheckpoint.of("x\ud800y\udc00z\udc00\ud800\ud83d", 0, 0);
    assertBytes(c, "{\"version\":1,\"stream_id\":\"x\ufffdy\ufffdz\ufffd\ufffd\ufffd\",\"partition\":0,\"next_lsn\":0}");
    assertThat(CursorCheckpoint.parse(c.toJsonBytes()).streamId()).isEqualTo("x\ufffdy\ufffdz\ufffd\ufffd\ufffd");
  }

  @Test
  void escapesGoMayWriteAreReadBack() {
    String json = "{\"version\":1,\"stream_id\":\"\\u003C\\u003e\\u0026\\/\\ud83d\\ude00\\u2028\\b\\f\","
        + "\"partition\":3,\"next_lsn\":9}";
    assertThat(CursorCheckpoint.parse(json.getBytes(UTF_8)))
        .isEqualTo(CursorCheckpoint.of("<>&/\ud83d\ude00\u2028\b\f", 3, 9));
  }
}
