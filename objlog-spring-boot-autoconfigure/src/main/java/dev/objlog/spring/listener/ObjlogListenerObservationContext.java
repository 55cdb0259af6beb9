package dev.objlog.spring.listener;

import dev.objlog.Header;
import dev.objlog.read.ReadRecord;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.ReceiverContext;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What the {@code objlog.listener} observation knows about one invocation. It is a receiver
 * context whose carrier is the (first) record: a tracer reads the trace context that the sending
 * {@code objlog.template} observation wrote into its headers, so the invocation continues the
 * sender's trace.
 *
 * <p>Thread-safety: created and used by one partition thread.
 */
public class ObjlogListenerObservationContext extends ReceiverContext<ReadRecord> {
  private final String listenerId;
  private final String streamName;
  private final int partition;
  private final List<ReadRecord> records;

  public ObjlogListenerObservationContext(String listenerId, String streamName, int partition, List<ReadRecord> records) {
    super(ObjlogListenerObservationContext::header, Kind.CONSUMER);
    this.listenerId = listenerId;
    this.streamName = streamName;
    this.partition = partition;
    this.records = List.copyOf(records);
    if (!this.records.isEmpty()) {
      setCarrier(this.records.get(0)); // a batch continues the trace of its first record
    }
    setRemoteServiceName("objlog");
  }

  /** The value of the record's last header named {@code key}, as UTF-8; null when it has none. */
  private static @Nullable String header(@Nullable ReadRecord record, String key) {
    if (record == null) {
      return null;
    }
    byte[] name = key.getBytes(StandardCharsets.UTF_8);
    List<Header> headers = record.headers();
    for (int i = headers.size() - 1; i >= 0; i--) {
      if (Arrays.equals(headers.get(i).key(), name)) {
        return headers.get(i).valueAsString();
      }
    }
    return null;
  }

  public String getListenerId() {
    return listenerId;
  }

  public String getStreamName() {
    return streamName;
  }

  public int getPartition() {
    return partition;
  }

  /** The record, or the batch, handed to the method. */
  public List<ReadRecord> getRecords() {
    return records;
  }
}
