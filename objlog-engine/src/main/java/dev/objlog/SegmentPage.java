package dev.objlog;

import java.util.List;
import java.util.Objects;

/**
 * One page of a partition's reachable segments in LSN order, as {@link Objlog#segments} lists
 * them, with the head the listing was taken from.
 *
 * <p>Thread-safety: immutable.
 *
 * @param head the partition head the segments were listed from
 * @param segments reachable segments in LSN order; the first contains the requested LSN, or is
 *     the oldest reachable one when the request was below the retention floor
 * @param nextLsn where the next page starts: the base LSN of the first segment not listed, or the
 *     head's next LSN when the listing reached it (u64)
 * @param hasMore whether reachable segments remain from {@code nextLsn} on
 */
public record SegmentPage(PartitionHead head, List<SegmentRef> segments, long nextLsn, boolean hasMore) {
  public SegmentPage {
    Objects.requireNonNull(head, "head");
    segments = List.copyOf(segments);
  }
}
