package dev.objlog.store;

import java.util.Objects;

/**
 * An opaque version of one object as the store reports it: the ETag on S3 and Azure, the
 * generation on GCS and in the filesystem and memory stores. It changes on every write.
 *
 * <p>{@link #ABSENT} (the empty token) stands for "no object": passed as the expected token of
 * {@link ObjectStore#compareAndSwap}, it makes the write create-only.
 *
 * <p>Thread-safety: immutable.
 */
public record VersionToken(String value) {
  /** The empty token: the key must not exist. */
  public static final VersionToken ABSENT = new VersionToken("");

  public VersionToken {
    Objects.requireNonNull(value, "value");
  }

  public static VersionToken of(String value) {
    return value.isEmpty() ? ABSENT : new VersionToken(value);
  }

  public boolean isAbsent() {
    return value.isEmpty();
  }

  @Override
  public String toString() {
    return isAbsent() ? "<absent>" : value;
  }
}
