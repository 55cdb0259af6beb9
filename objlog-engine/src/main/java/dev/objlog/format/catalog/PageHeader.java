package dev.objlog.format.catalog;

import dev.objlog.InvalidArgumentException;
import dev.objlog.format.HashAlgorithm;
import java.util.Objects;

/**
 * The header fields of a sealed page that are not implied by its entries. Magic, version,
 * header length, flags (always 0), entry count and entry size are derived from the page kind and
 * its entry list, so they cannot disagree with the entries.
 *
 * <p>Thread-safety: immutable.
 *
 * @param partition the stream partition (u32 held in an int; compare with {@link
 *     Integer#toUnsignedLong})
 * @param level 0 for a leaf page, 1..63 for an index page
 * @param hashAlgorithm the algorithm of this page's trailer hashes
 * @param seqLo the first entry's first LSN
 * @param seqHi the last entry's last LSN
 * @param minTimestampMs the first entry's minimum timestamp
 * @param maxTimestampMs the last entry's maximum timestamp
 * @param generation the head generation that sealed the page (non-zero)
 * @param writerEpoch the writer epoch of the sealing commit (non-zero)
 * @param streamKey SHA-256 of the canonical stream id
 * @param segmentCount segments in the page's subtree
 */
public record PageHeader(
    int partition,
    int level,
    HashAlgorithm hashAlgorithm,
    long seqLo,
    long seqHi,
    long minTimestampMs,
    long maxTimestampMs,
    long generation,
    long writerEpoch,
    Key256 streamKey,
    long segmentCount) {

  /**
   * @throws InvalidArgumentException if level does not fit its u8 field
   */
  public PageHeader {
    if (level < 0 || level > 0xFF) {
      throw new InvalidArgumentException("level is an unsigned 8-bit field; " + level + " does not fit");
    }
    Objects.requireNonNull(hashAlgorithm, "hashAlgorithm");
    Objects.requireNonNull(streamKey, "streamKey");
  }
}
