package dev.objlog.spring.listener.checkpoint;

import java.util.Objects;

/** Checks of the names that become folder names and column values. */
final class Names {
  static final int MAX_ID_LENGTH = 255;
  static final int MAX_STREAM_NAME_LENGTH = 64;

  private Names() {}

  /** A listener id, group or lease owner: 1 to 255 characters, usable as one path segment. */
  static void checkOwnerId(String what, String value) {
    Objects.requireNonNull(value, what);
    if (value.isEmpty() || value.length() > MAX_ID_LENGTH) {
      throw new IllegalArgumentException(what + " must be 1 to " + MAX_ID_LENGTH + " characters: '" + value + "'");
    }
    if (value.equals(".") || value.equals("..")) {
      throw new IllegalArgumentException(what + " must not be '.' or '..'");
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '/' || c == '\\' || Character.isISOControl(c)) {
        throw new IllegalArgumentException(
            what + " must not contain '/', '\\' or control characters: '" + value + "'");
      }
    }
  }

  static void checkStreamName(String streamName) {
    Objects.requireNonNull(streamName, "streamName");
    if (streamName.isEmpty() || streamName.length() > MAX_STREAM_NAME_LENGTH) {
      throw new IllegalArgumentException(
          "stream name must be 1 to " + MAX_STREAM_NAME_LENGTH + " characters: '" + streamName + "'");
    }
  }
}
