package dev.objlog.spring.listener;

import dev.objlog.read.ReadRecord;
import java.util.List;
import java.util.Objects;

/**
 * A listener invocation that kept failing: which listener, stream and partition, the records it
 * failed on (one record; in batch mode the failing element when the method threw a {@link
 * BatchListenerFailedException}, otherwise the whole remaining batch), the last exception and how
 * many attempts were made.
 *
 * <p>Thread-safety: immutable.
 */
public record ListenerFailure(
    String listenerId, String streamName, int partition, List<ReadRecord> records, Exception cause, int attempts) {
  public ListenerFailure {
    Objects.requireNonNull(listenerId, "listenerId");
    Objects.requireNonNull(streamName, "streamName");
    records = List.copyOf(records);
    Objects.requireNonNull(cause, "cause");
  }
}
