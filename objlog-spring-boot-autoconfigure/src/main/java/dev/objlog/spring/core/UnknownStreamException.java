package dev.objlog.spring.core;

import dev.objlog.InvalidArgumentException;
import java.util.Collection;

/**
 * No stream is configured under the name used. A caller error: configure {@code
 * objlog.streams.<name>} or use one of the configured names.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class UnknownStreamException extends InvalidArgumentException {
  private static final long serialVersionUID = 1L;

  private final String streamName;

  public UnknownStreamException(String streamName, Collection<String> configured) {
    super("no stream is configured under the name '" + streamName + "' (objlog.streams." + streamName
        + "); configured: " + configured);
    this.streamName = streamName;
  }

  public String getStreamName() {
    return streamName;
  }
}
