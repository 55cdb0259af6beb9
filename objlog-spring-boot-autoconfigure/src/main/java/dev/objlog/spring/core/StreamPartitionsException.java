package dev.objlog.spring.core;

import dev.objlog.ObjlogException;

/**
 * The partition count of a stream opened by name ({@code objlog.defaults.auto-create}) cannot be
 * agreed: the configured count differs from the one recorded in the bucket, or the stream exists
 * without a record and no count is configured. Not retryable: the message says what to set.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class StreamPartitionsException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  private final String streamName;

  public StreamPartitionsException(String streamName, String message) {
    super(message);
    this.streamName = streamName;
  }

  public String getStreamName() {
    return streamName;
  }
}
