package dev.objlog;

import java.util.Objects;

/**
 * An application snapshot of one partition's state through {@link #throughLsn()}, stored by the
 * application at {@link #objectKey()} and announced in {@code maintenance/snapshot.json} (our
 * extension of the bucket layout; the Go library ignores it). A replica starts from the newest
 * snapshot and replays from {@code throughLsn + 1}; with {@link Objlog#snapshotGate()} retention
 * never trims records the newest snapshot does not cover.
 *
 * <p>Thread-safety: immutable.
 *
 * @param streamId the canonical stream id
 * @param partition the stream partition (u32)
 * @param throughLsn the last LSN whose effect the snapshot includes (u64)
 * @param objectKey where the application stored the snapshot (any key or URI it understands)
 * @param createdUnixMs when the marker was written (log clock)
 */
public record SnapshotMarker(
    String streamId, int partition, long throughLsn, String objectKey, long createdUnixMs) {
  public SnapshotMarker {
    Objects.requireNonNull(streamId, "streamId");
    Objects.requireNonNull(objectKey, "objectKey");
  }

  /** The LSN a replica starting from this snapshot replays from (u64). */
  public long replayFromLsn() {
    return throughLsn + 1;
  }
}
