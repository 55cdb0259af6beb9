package dev.objlog.spring.listener;

import dev.objlog.read.ReadRecord;
import io.micrometer.observation.Observation;
import java.util.List;

/**
 * What the {@code objlog.listener} observation knows about one invocation.
 *
 * <p>Thread-safety: created and used by one partition thread.
 */
public class ObjlogListenerObservationContext extends Observation.Context {
  private final String listenerId;
  private final String streamName;
  private final int partition;
  private final List<ReadRecord> records;

  public ObjlogListenerObservationContext(String listenerId, String streamName, int partition, List<ReadRecord> records) {
    this.listenerId = listenerId;
    this.streamName = streamName;
    this.partition = partition;
    this.records = List.copyOf(records);
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
