package dev.objlog.spring.listener;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * Where a listener starts on a partition that has no checkpoint: {@code earliest}, {@code
 * latest}, {@code timestamp:<ISO-8601 instant>}, {@code lsn:<n>} (unsigned) or {@code snapshot}
 * (the partition's newest snapshot, handed to the bean's {@link SnapshotAwareListener} before the
 * first record; the oldest record when there is none and the log was never trimmed).
 *
 * <p>Thread-safety: immutable.
 */
public sealed interface StartPosition {

  record Earliest() implements StartPosition {}

  record Latest() implements StartPosition {}

  record Timestamp(Instant instant) implements StartPosition {}

  record Lsn(long lsn) implements StartPosition {}

  /** The newest snapshot, then its replay LSN; see {@link SnapshotAwareListener}. */
  record Snapshot() implements StartPosition {}

  /** @throws IllegalArgumentException when {@code text} is none of the forms */
  static StartPosition parse(String text) {
    String t = text.trim();
    String lower = t.toLowerCase(Locale.ROOT);
    if (lower.equals("earliest")) {
      return new Earliest();
    }
    if (lower.equals("latest")) {
      return new Latest();
    }
    if (lower.equals("snapshot")) {
      return new Snapshot();
    }
    try {
      if (lower.startsWith("timestamp:")) {
        return new Timestamp(Instant.parse(t.substring("timestamp:".length()).trim()));
      }
      if (lower.startsWith("lsn:")) {
        return new Lsn(Long.parseUnsignedLong(t.substring("lsn:".length()).trim()));
      }
    } catch (DateTimeParseException | NumberFormatException e) {
      throw new IllegalArgumentException("invalid start position \"" + text + "\": " + e.getMessage(), e);
    }
    throw new IllegalArgumentException("invalid start position \"" + text
        + "\": use earliest, latest, snapshot, timestamp:<ISO-8601 instant> or lsn:<n>");
  }
}
