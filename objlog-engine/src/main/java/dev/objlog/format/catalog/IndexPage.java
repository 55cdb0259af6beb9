package dev.objlog.format.catalog;

import dev.objlog.InvalidArgumentException;
import dev.objlog.format.HashAlgorithm;
import java.util.List;
import java.util.Objects;

/**
 * A sealed index page: 1..1024 references to pages one level down, in LSN order.
 *
 * <p>Thread-safety: immutable (the entry list is an unmodifiable copy).
 *
 * @param header header fields; its level is 1..63 for a valid index page
 * @param entries references to the child pages
 */
public record IndexPage(PageHeader header, List<IndexEntry> entries) implements CatalogPage {

  public IndexPage {
    Objects.requireNonNull(header, "header");
    entries = List.copyOf(entries);
  }

  /**
   * Builds the index page a writer seals from a full open section at {@code level}: bounds come
   * from the first and last entries, segment_count is the sum of the children's counts.
   *
   * @throws InvalidArgumentException if {@code entries} is empty or the segment counts overflow
   *     64 bits; other rules are checked by {@link CatalogCodec#encodePage}
   */
  public static IndexPage seal(
      int level,
      int partition,
      HashAlgorithm hashAlgorithm,
      long generation,
      long writerEpoch,
      Key256 streamKey,
      List<IndexEntry> entries) {
    if (entries.isEmpty()) {
      throw new InvalidArgumentException("an index page needs at least one entry");
    }
    long segments = 0;
    for (IndexEntry entry : entries) {
      long sum = segments + entry.segmentCount();
      if (Long.compareUnsigned(sum, segments) < 0) {
        throw new InvalidArgumentException("the children's segment counts overflow 64 bits");
      }
      segments = sum;
    }
    IndexEntry first = entries.get(0);
    IndexEntry last = entries.get(entries.size() - 1);
    PageHeader header =
        new PageHeader(
            partition,
            level,
            hashAlgorithm,
            first.seqLo(),
            last.seqHi(),
            first.minTimestampMs(),
            last.maxTimestampMs(),
            generation,
            writerEpoch,
            streamKey,
            segments);
    return new IndexPage(header, entries);
  }

  @Override
  public int entryCount() {
    return entries.size();
  }

  @Override
  public int encodedSize() {
    return CatalogFormat.PAGE_HEADER_SIZE
        + entries.size() * CatalogFormat.INDEX_ENTRY_SIZE
        + CatalogFormat.TRAILER_SIZE;
  }
}
