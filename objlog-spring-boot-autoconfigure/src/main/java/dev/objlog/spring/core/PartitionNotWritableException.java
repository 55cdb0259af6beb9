package dev.objlog.spring.core;

import dev.objlog.InvalidArgumentException;

/**
 * A send named a partition this instance does not write: it is outside {@code
 * objlog.streams.<name>.writer.partitions}. Another instance owns it; sending it there instead, or
 * widening this instance's writer partitions (which fences that instance out), are the options.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class PartitionNotWritableException extends InvalidArgumentException {
  private static final long serialVersionUID = 1L;

  private final String streamName;
  private final int partition;

  public PartitionNotWritableException(String streamName, int partition, PartitionSet writable) {
    super("this instance does not write partition " + partition + " of stream '" + streamName
        + "': objlog.streams." + streamName + ".writer.partitions is \"" + writable + "\"");
    this.streamName = streamName;
    this.partition = partition;
  }

  public String getStreamName() {
    return streamName;
  }

  public int getPartition() {
    return partition;
  }
}
