package dev.objlog.spring.core;

import dev.objlog.PartitionHead;
import java.util.Objects;

/**
 * A record the {@link ObjlogTemplate} sent and the log committed: it is durable and readable by
 * every reader of the stream.
 *
 * <p>Thread-safety: immutable.
 *
 * @param streamName the configured stream name
 * @param partition the partition it went to
 * @param lsn its LSN (unsigned 64-bit)
 * @param timestampMs its timestamp, Unix milliseconds ({@code max(now, previous)} in the partition)
 * @param committed the head of the commit that made it durable ({@code nextLsn} is above {@code lsn})
 */
public record SendResult(String streamName, int partition, long lsn, long timestampMs, PartitionHead committed) {
  public SendResult {
    Objects.requireNonNull(streamName, "streamName");
    Objects.requireNonNull(committed, "committed");
  }
}
