package dev.objlog.spring.core;

import dev.objlog.InvalidArgumentException;

/**
 * A send named a partition this instance does not write: it is outside {@code
 * objlog.streams.<name>.writer.partitions}, or (with writer leases) another instance holds its
 * lease. Another instance owns it; sending it there instead, or widening this instance's writer
 * partitions (which fences that instance out), are the options.
 *
 * <p>With writer leases it is also what a keyed send throws when a rebalance took the picked
 * partition away (or none is held yet): nothing was sent, and retrying the keyed send picks again
 * among the partitions held then. The template never reroutes on its own; docs/SPRING.md, "Writer
 * leases".
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

  private PartitionNotWritableException(String streamName, int partition, String message) {
    super(message);
    this.streamName = streamName;
    this.partition = partition;
  }

  /** A send to a partition whose writer lease another instance holds (or nobody yet). */
  static PartitionNotWritableException notLeased(String streamName, int partition, PartitionSet held) {
    return new PartitionNotWritableException(streamName, partition, "this instance does not hold the writer lease"
        + " of partition " + partition + " of stream '" + streamName + "' (objlog.streams." + streamName
        + ".writer.lease.enabled=true); it holds " + (held.size() == 0 ? "none yet" : "\"" + held + "\"")
        + ". Send with a key to use a partition it holds, or send this partition from the instance that holds it");
  }

  public String getStreamName() {
    return streamName;
  }

  public int getPartition() {
    return partition;
  }
}
