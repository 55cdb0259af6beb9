package dev.objlog.format.catalog;

import dev.objlog.InvalidArgumentException;
import dev.objlog.format.HashAlgorithm;
import java.util.List;
import java.util.Objects;

/**
 * A sealed leaf page: 1..1024 segment entries in LSN order.
 *
 * <p>Thread-safety: immutable (the entry list is an unmodifiable copy).
 *
 * @param header header fields; its level is 0 for a valid leaf page
 * @param entries the segment entries
 */
public record LeafPage(PageHeader header, List<LeafEntry> entries) implements CatalogPage {

  public LeafPage {
    Objects.requireNonNull(header, "header");
    entries = List.copyOf(entries);
  }

  /**
   * Builds the leaf page a writer seals from its open leaf: bounds come from the first and last
   * entries, segment_count is the entry count.
   *
   * @throws InvalidArgumentException if {@code entries} is empty; other rules are checked by
   *     {@link CatalogCodec#encodePage}
   */
  public static LeafPage seal(
      int partition,
      HashAlgorithm hashAlgorithm,
      long generation,
      long writerEpoch,
      Key256 streamKey,
      List<LeafEntry> entries) {
    if (entries.isEmpty()) {
      throw new InvalidArgumentException("a leaf page needs at least one entry");
    }
    LeafEntry first = entries.get(0);
    LeafEntry last = entries.get(entries.size() - 1);
    PageHeader header =
        new PageHeader(
            partition,
            0,
            hashAlgorithm,
            first.baseLsn(),
            last.lastLsn(),
            first.minTimestampMs(),
            last.maxTimestampMs(),
            generation,
            writerEpoch,
            streamKey,
            entries.size());
    return new LeafPage(header, entries);
  }

  @Override
  public int entryCount() {
    return entries.size();
  }

  @Override
  public int encodedSize() {
    return CatalogFormat.PAGE_HEADER_SIZE
        + entries.size() * CatalogFormat.LEAF_ENTRY_SIZE
        + CatalogFormat.TRAILER_SIZE;
  }
}
