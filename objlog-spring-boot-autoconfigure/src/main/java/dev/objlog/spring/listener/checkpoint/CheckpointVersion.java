package dev.objlog.spring.listener.checkpoint;

import java.util.Objects;

/**
 * The version of a stored checkpoint, as its repository reports it: opaque to callers, changing on
 * every save. A JDBC repository counts (a decimal number), the bucket repository uses the object
 * store's version token. Pass the version you loaded back to {@link CheckpointRepository#save} so
 * that the save only succeeds if nobody advanced the checkpoint since.
 *
 * <p>{@link #ABSENT} stands for "no checkpoint stored yet": saving with it only succeeds if there
 * is none.
 *
 * <p>Thread-safety: immutable.
 *
 * @param value the repository's version, or "" for {@link #ABSENT}
 */
public record CheckpointVersion(String value) {
  /** No checkpoint stored yet. */
  public static final CheckpointVersion ABSENT = new CheckpointVersion("");

  public CheckpointVersion {
    Objects.requireNonNull(value, "value");
  }

  public static CheckpointVersion of(String value) {
    return value.isEmpty() ? ABSENT : new CheckpointVersion(value);
  }

  public boolean isAbsent() {
    return value.isEmpty();
  }

  @Override
  public String toString() {
    return isAbsent() ? "<absent>" : value;
  }
}
