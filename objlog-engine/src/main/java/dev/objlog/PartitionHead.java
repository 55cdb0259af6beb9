package dev.objlog;

import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The committed state of one stream partition as its catalog head records it: the LSN range
 * that is readable, the retention state, the writer fence and the commit counters. Mirrors the
 * Go library's {@code PartitionHead}, plus the commit {@code generation}.
 *
 * <p>All counters, LSNs, epochs and the generation are unsigned 64-bit values held in {@code
 * long}s (compare with {@link Long#compareUnsigned}, print with {@link Long#toUnsignedString});
 * epochs and generations may reach 2^64−1. The partition is an unsigned 32-bit value.
 *
 * <p>Thread-safety: immutable.
 *
 * @param streamId the canonical stream id
 * @param partition the stream partition (u32)
 * @param nextLsn the LSN the next committed record gets; records are readable in [oldestLsn,
 *     nextLsn)
 * @param oldestLsn the retention floor: the first LSN still readable
 * @param appliedRetentionLsn the LSN of the last applied retention request (clamped to nextLsn)
 * @param appliedRetentionVersion the policy version of the last applied retention request, 0 if
 *     none
 * @param writerEpoch the fence: the epoch of the writer that owns the partition, 0 if none ever
 *     did
 * @param generation the commit counter: rises by one with every head change
 * @param segmentCount segments ever committed (retention never lowers it)
 * @param reachableSegmentCount segments still readable
 * @param lastSegment the most recently committed segment, or null if none was ever committed (it
 *     stays set after retention trimmed everything, to keep timestamp order)
 */
public record PartitionHead(
    String streamId,
    int partition,
    long nextLsn,
    long oldestLsn,
    long appliedRetentionLsn,
    long appliedRetentionVersion,
    long writerEpoch,
    long generation,
    long segmentCount,
    long reachableSegmentCount,
    @Nullable SegmentRef lastSegment) {

  public PartitionHead {
    Objects.requireNonNull(streamId, "streamId");
  }

  /** Whether a segment was ever committed. */
  public boolean hasLastSegment() {
    return lastSegment != null;
  }

  /** The last committed segment, if any. */
  public Optional<SegmentRef> lastSegmentIfAny() {
    return Optional.ofNullable(lastSegment);
  }

  @Override
  public String toString() {
    return "PartitionHead[" + streamId + "/" + Integer.toUnsignedString(partition) + ", lsn ["
        + Long.toUnsignedString(oldestLsn) + "," + Long.toUnsignedString(nextLsn) + "), epoch "
        + Long.toUnsignedString(writerEpoch) + ", generation " + Long.toUnsignedString(generation)
        + ", segments " + Long.toUnsignedString(reachableSegmentCount) + "/"
        + Long.toUnsignedString(segmentCount) + "]";
  }
}
