package dev.objlog.spring.listener.checkpoint;

import dev.objlog.read.CursorCheckpoint;
import java.util.Objects;

/** Argument checks shared by the repositories. */
final class Checks {
  private Checks() {}

  static void checkSave(CheckpointKey key, CursorCheckpoint checkpoint, CheckpointVersion expectedVersion) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(checkpoint, "checkpoint");
    Objects.requireNonNull(expectedVersion, "expectedVersion");
    if (checkpoint.partition() != key.partition()) {
      throw new IllegalArgumentException(
          "checkpoint " + checkpoint.toJson() + " is for partition " + Integer.toUnsignedString(checkpoint.partition())
              + ", not for " + key);
    }
  }

  /** A counting repository's version as a number; 0 for {@link CheckpointVersion#ABSENT}. */
  static long counterVersion(CheckpointVersion version) {
    if (version.isAbsent()) {
      return 0;
    }
    try {
      long v = Long.parseLong(version.value());
      if (v > 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("not a version of this repository: '" + version.value() + "'");
  }
}
