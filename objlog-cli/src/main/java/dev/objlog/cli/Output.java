package dev.objlog.cli;

import dev.objlog.Header;
import dev.objlog.read.ReadRecord;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.json.JsonMapper;

/**
 * How commands print: rows of fields as {@code key=value} text or one JSON object per line, and
 * records as text, JSON lines or raw netstrings.
 *
 * <p>Thread-safety: stateless.
 */
final class Output {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private Output() {}

  /** Output formats of rows (text, json) and records (all three). */
  enum Format {
    text,
    json,
    /** Records only: each value as a netstring, {@code <length>:<bytes>,} (length in decimal). */
    raw
  }

  static void rows(PrintStream out, Format format, List<Map<String, Object>> rows) {
    for (Map<String, Object> row : rows) {
      row(out, format, row);
    }
  }

  static void row(PrintStream out, Format format, Map<String, Object> row) {
    if (format == Format.json) {
      out.println(JSON.writeValueAsString(row));
      return;
    }
    StringBuilder line = new StringBuilder();
    row.forEach((k, v) -> line.append(line.isEmpty() ? "" : "  ").append(k).append('=').append(v));
    out.println(line);
  }

  static void record(PrintStream out, Format format, ReadRecord r) {
    switch (format) {
      case raw -> {
        byte[] value = r.valueBytes();
        out.print(value.length + ":");
        out.write(value, 0, value.length);
        out.print(',');
      }
      case json -> {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("partition", r.partition());
        m.put("lsn", Long.toUnsignedString(r.lsn()));
        m.put("timestamp", Instant.ofEpochMilli(r.timestampMs()).toString());
        Map<String, String> headers = new LinkedHashMap<>();
        for (Header h : r.headers()) {
          headers.put(h.keyAsString(), utf8(ByteBuffer.wrap(h.value())).orElse(Base64.getEncoder().encodeToString(h.value())));
        }
        m.put("headers", headers);
        Optional<String> text = utf8(r.value());
        if (text.isPresent()) {
          m.put("value", text.get());
        } else {
          m.put("valueBase64", Base64.getEncoder().encodeToString(r.valueBytes()));
        }
        out.println(JSON.writeValueAsString(m));
      }
      case text -> {
        StringBuilder headers = new StringBuilder();
        for (Header h : r.headers()) {
          headers.append(' ').append(h.keyAsString()).append('=')
              .append(utf8(ByteBuffer.wrap(h.value())).orElse("<" + h.value().length + " bytes>"));
        }
        out.println(Long.toUnsignedString(r.lsn()) + "\t" + Instant.ofEpochMilli(r.timestampMs()) + "\t"
            + utf8(r.value()).orElse("<" + r.valueSize() + " bytes, not UTF-8>") + (headers.isEmpty() ? "" : "\t" + headers.toString().strip()));
      }
    }
  }

  /** The bytes as text when they are valid UTF-8. */
  private static Optional<String> utf8(ByteBuffer bytes) {
    try {
      return Optional.of(StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(bytes.duplicate())
          .toString());
    } catch (CharacterCodingException e) {
      return Optional.empty();
    }
  }
}
