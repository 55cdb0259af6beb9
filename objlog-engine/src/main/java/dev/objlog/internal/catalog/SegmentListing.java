package dev.objlog.internal.catalog;

import dev.objlog.format.catalog.LeafEntry;
import java.util.List;

/**
 * One page of {@link PartitionCatalog#listSegments}.
 *
 * <p>Thread-safety: immutable.
 *
 * @param segments segments in LSN order; the first contains the requested LSN (or starts at the
 *     retention floor when the request was below it)
 * @param nextLsn where the next page starts: the base LSN of the first segment not returned, the
 *     head's next LSN when the listing reached the end, or the requested LSN when it was at or
 *     beyond the head's next LSN (u64)
 * @param hasMore whether segments remain between {@code nextLsn} and the head's next LSN
 */
public record SegmentListing(List<LeafEntry> segments, long nextLsn, boolean hasMore) {
  public SegmentListing {
    segments = List.copyOf(segments);
  }
}
