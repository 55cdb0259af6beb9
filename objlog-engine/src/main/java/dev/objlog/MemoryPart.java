package dev.objlog;

/**
 * What the bytes of a {@link MemoryBudget} are held for: writers' pending bytes, or one of the
 * caches that draw from the same budget. Each part's {@link #tag()} is the value of the {@code
 * part} tag of the {@code objlog.memory.used} gauge (docs/METRICS.md).
 *
 * <p>When a writer needs bytes that caches hold, caches give them back first, in the order the
 * constants are declared after {@link #WRITERS}: decoded blocks (the largest, and refetched with
 * one ranged GET), then opened segments, then catalog pages (small, and on every lookup's path).
 *
 * <p>Thread-safety: immutable.
 */
public enum MemoryPart {
  /** Worst-case pending bytes of partition writers (batches being built, segments not yet committed). */
  WRITERS("writers"),
  /** Decoded segment blocks kept by readers for repeated reads near the tail. */
  BLOCKS("blocks"),
  /** Opened segments (validated trailer and block index, small segments whole) kept by readers. */
  SEGMENT_INDEXES("segment-indexes"),
  /** Decoded catalog pages kept by each log. */
  CATALOG_PAGES("catalog-pages");

  private final String tag;

  MemoryPart(String tag) {
    this.tag = tag;
  }

  /** The meter tag value: {@code writers}, {@code blocks}, {@code segment-indexes}, {@code catalog-pages}. */
  public String tag() {
    return tag;
  }
}
