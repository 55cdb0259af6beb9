package dev.objlog.format.catalog;

import dev.objlog.InvalidArgumentException;
import java.util.Objects;

/**
 * A reference to a sealed child page (80 bytes on the wire), held by index pages and by the
 * open index sections of a head. Unsigned fields follow the conventions of {@link LeafEntry}.
 *
 * <p>Construction only checks that each value fits its wire field; the format's rules are
 * checked on encode and decode.
 *
 * <p>Thread-safety: immutable.
 *
 * @param level level of the referenced page (u8; 0 = leaf page, at most 63)
 * @param entryCount direct entries of the child (u32, 1..1024)
 * @param seqLo first LSN covered by the child (u64)
 * @param seqHi last LSN covered by the child, inclusive (u64, at most 2^64−2)
 * @param minTimestampMs smallest timestamp in the child
 * @param maxTimestampMs largest timestamp in the child
 * @param generation the head generation that sealed the child (u64, non-zero)
 * @param pageId the child's page id (non-zero)
 * @param segmentCount segments in the whole child subtree (u64)
 */
public record IndexEntry(
    int level,
    long entryCount,
    long seqLo,
    long seqHi,
    long minTimestampMs,
    long maxTimestampMs,
    long generation,
    Id128 pageId,
    long segmentCount) {

  /**
   * @throws InvalidArgumentException if level or entry_count is outside its wire range
   */
  public IndexEntry {
    if (level < 0 || level > 0xFF) {
      throw new InvalidArgumentException("level is an unsigned 8-bit field; " + level + " does not fit");
    }
    LeafEntry.checkU32(entryCount, "entry_count");
    Objects.requireNonNull(pageId, "pageId");
  }

  /** True if {@code lsn} lies in [seqLo, seqHi] (unsigned). */
  public boolean contains(long lsn) {
    return Long.compareUnsigned(seqLo, lsn) <= 0 && Long.compareUnsigned(lsn, seqHi) <= 0;
  }

  @Override
  public String toString() {
    return "IndexEntry[level "
        + level
        + ", lsn "
        + Long.toUnsignedString(seqLo)
        + ".."
        + Long.toUnsignedString(seqHi)
        + ", ts "
        + minTimestampMs
        + ".."
        + maxTimestampMs
        + ", generation "
        + Long.toUnsignedString(generation)
        + ", entries "
        + entryCount
        + ", segments "
        + Long.toUnsignedString(segmentCount)
        + ", page "
        + pageId
        + "]";
  }
}
