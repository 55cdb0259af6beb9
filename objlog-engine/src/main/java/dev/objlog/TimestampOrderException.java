package dev.objlog;

/**
 * A record's timestamp is older than the partition's newest one. Timestamps never decrease within
 * a partition, because reads by timestamp depend on it. The record was not accepted and the writer
 * stays usable; pass {@code max(now, lastTimestamp)} when using wall-clock time.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class TimestampOrderException extends InvalidArgumentException {
  private static final long serialVersionUID = 1L;

  public TimestampOrderException(String message) {
    super(message);
  }
}
