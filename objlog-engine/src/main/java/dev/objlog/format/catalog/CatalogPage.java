package dev.objlog.format.catalog;

/**
 * A sealed catalog page: a {@link LeafPage} (level 0, segment entries) or an {@link IndexPage}
 * (levels 1..63, references one level down). Pages are written once and never change; retention
 * writes trimmed copies under a new generation.
 *
 * <p>Thread-safety: implementations are immutable.
 */
public sealed interface CatalogPage permits LeafPage, IndexPage {

  PageHeader header();

  /** Number of direct entries. */
  int entryCount();

  /** Encoded size of this page. */
  int encodedSize();

  /**
   * The reference a parent (an index page or a head section) holds for this page once it is
   * sealed under {@code pageId}.
   */
  default IndexEntry reference(Id128 pageId) {
    PageHeader h = header();
    return new IndexEntry(
        h.level(),
        entryCount(),
        h.seqLo(),
        h.seqHi(),
        h.minTimestampMs(),
        h.maxTimestampMs(),
        h.generation(),
        pageId,
        h.segmentCount());
  }
}
