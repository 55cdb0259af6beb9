package dev.objlog.spring.core;

import dev.objlog.Header;
import dev.objlog.InvalidArgumentException;
import dev.objlog.LogRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.springframework.messaging.MessageHeaders;

/**
 * How the template turns what it is given into record headers, and whether headers still fit a
 * record (the engine's {@link LogRecord#MAX_HEADERS} and {@link LogRecord#MAX_HEADER_BYTES}).
 * Stateless.
 */
final class MessageRecords {
  private MessageRecords() {}

  /**
   * A message's record headers: every header but Spring's generated {@code id} and {@code
   * timestamp} and objlog's stream and partition; {@code byte[]} values as they are, others as
   * their {@code toString()} in UTF-8.
   */
  static List<Header> headersOf(MessageHeaders headers) {
    List<Header> recordHeaders = new ArrayList<>();
    headers.forEach((name, value) -> {
      if (value == null || name.equals(MessageHeaders.ID) || name.equals(MessageHeaders.TIMESTAMP)
          || name.equals(ObjlogHeaders.STREAM) || name.equals(ObjlogHeaders.PARTITION)) {
        return;
      }
      byte[] bytes = value instanceof byte[] b ? b : value.toString().getBytes(StandardCharsets.UTF_8);
      recordHeaders.add(Header.of(name.getBytes(StandardCharsets.UTF_8), bytes));
    });
    return recordHeaders;
  }

  /** The partition named by the {@link ObjlogHeaders#PARTITION} header's value. */
  static int partitionOf(Object header) {
    if (header instanceof Number n) {
      return n.intValue();
    }
    try {
      return Integer.parseInt(header.toString().trim());
    } catch (NumberFormatException e) {
      throw new InvalidArgumentException("the header " + ObjlogHeaders.PARTITION + " must be a partition number, was \""
          + header + "\"");
    }
  }

  /** Whether a record may carry {@code headers}: as many and as large as {@link LogRecord} accepts. */
  static boolean fit(List<Header> headers) {
    return headers.size() <= LogRecord.MAX_HEADERS && headersAreaSize(headers) <= LogRecord.MAX_HEADER_BYTES;
  }

  /** The encoded size of a record's headers area, as segments lay it out (FORMAT.md). */
  private static long headersAreaSize(List<Header> headers) {
    if (headers.isEmpty()) {
      return 0;
    }
    long size = 2; // the header count
    for (Header h : headers) {
      size += h.encodedSize();
    }
    return size;
  }
}
