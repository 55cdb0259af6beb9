package dev.objlog.spring.listener.checkpoint;

import dev.objlog.coordination.LeaseState;
import java.util.Objects;

/** Checks of the names that become folder names and column values. */
final class Names {
  static final int MAX_ID_LENGTH = 255;
  static final int MAX_STREAM_NAME_LENGTH = 64;

  private Names() {}

  /** A listener id, group or lease owner: 1 to 255 characters, usable as one path segment. */
  static void checkOwnerId(String what, String value) {
    LeaseState.checkName(what, value);
  }

  static void checkStreamName(String streamName) {
    Objects.requireNonNull(streamName, "streamName");
    if (streamName.isEmpty() || streamName.length() > MAX_STREAM_NAME_LENGTH) {
      throw new IllegalArgumentException(
          "stream name must be 1 to " + MAX_STREAM_NAME_LENGTH + " characters: '" + streamName + "'");
    }
  }
}
