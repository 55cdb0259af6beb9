package dev.objlog.spring.listener.checkpoint;

/**
 * Which checkpoint: the listener (or consumer group) that owns it, the stream by its configured
 * name ({@code objlog.streams.<name>}), and the partition.
 *
 * <p>The listener id becomes a folder name in the bucket ({@code consumers/<id>/}) and a column
 * value in a database, so it is 1 to 255 characters without {@code /}, {@code \}, control
 * characters, and is neither {@code .} nor {@code ..}.
 *
 * <p>Thread-safety: immutable.
 *
 * @param listenerId the listener id or consumer group
 * @param streamName the stream's configured name (1 to 64 characters)
 * @param partition the partition (u32 held in an int)
 */
public record CheckpointKey(String listenerId, String streamName, int partition) {

  public CheckpointKey {
    Names.checkOwnerId("listener id", listenerId);
    Names.checkStreamName(streamName);
  }

  /** A key; same as the constructor. */
  public static CheckpointKey of(String listenerId, String streamName, int partition) {
    return new CheckpointKey(listenerId, streamName, partition);
  }

  @Override
  public String toString() {
    return listenerId + "@" + streamName + "/" + Integer.toUnsignedString(partition);
  }
}
