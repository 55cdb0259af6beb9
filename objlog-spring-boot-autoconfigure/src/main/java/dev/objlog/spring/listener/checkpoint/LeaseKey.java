package dev.objlog.spring.listener.checkpoint;

/**
 * <b>Deprecated</b> with {@link LeaseRepository}: use {@link dev.objlog.coordination.LeaseId}.
 *
 * <p> * Which lease: the consumer group whose members compete for it, the stream by its configured name,
 * and the partition. The group follows the rules of {@link CheckpointKey#listenerId()}.
 *
 * <p>Thread-safety: immutable.
 *
 * @param group the consumer group
 * @param streamName the stream's configured name (1 to 64 characters)
 * @param partition the partition (u32 held in an int)
 */
@Deprecated(since = "0.1.0", forRemoval = true)
public record LeaseKey(String group, String streamName, int partition) {

  public LeaseKey {
    Names.checkOwnerId("group", group);
    Names.checkStreamName(streamName);
  }

  /** A key; same as the constructor. */
  public static LeaseKey of(String group, String streamName, int partition) {
    return new LeaseKey(group, streamName, partition);
  }

  @Override
  public String toString() {
    return group + "@" + streamName + "/" + Integer.toUnsignedString(partition);
  }
}
