package dev.objlog.spring.core;

/**
 * Message header names of objlog. On {@link ObjlogTemplate#send(org.springframework.messaging.Message)}:
 * {@link #STREAM} names the stream, and {@link #PARTITION} or {@link #KEY} picks the partition.
 *
 * <p>Thread-safety: constants only.
 */
public final class ObjlogHeaders {
  private ObjlogHeaders() {}

  /** Common prefix of objlog's header names. */
  public static final String PREFIX = "objlog_";

  /** The configured stream name (a {@code String}); required on messages sent. */
  public static final String STREAM = PREFIX + "stream";

  /** The partition (an {@code Integer}, another {@code Number} or a decimal {@code String}). */
  public static final String PARTITION = PREFIX + "partition";

  /**
   * The record key: picks the partition by {@link KeyPartitioner} when {@link #PARTITION} is
   * absent. Keyed sends also store it as a record header of this name, so readers see it.
   */
  public static final String KEY = PREFIX + "key";

  /** On records a listener receives: the record's LSN (a {@code Long}, unsigned 64-bit). */
  public static final String LSN = PREFIX + "lsn";

  /**
   * On records a listener receives: the record's timestamp, as a {@code Long} of epoch
   * milliseconds or an {@code Instant}, by the parameter's type.
   */
  public static final String TIMESTAMP = PREFIX + "timestamp";
}
