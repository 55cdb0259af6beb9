package dev.objlog.format.catalog;

import java.util.Objects;

/**
 * One top-level range reachable from a head: a reference held in an open index section, or an
 * entry of the open leaf. {@link Head#roots()} lists them oldest first; together they cover
 * [oldest_lsn, next_lsn) without gaps.
 *
 * <p>Thread-safety: implementations are immutable.
 */
public sealed interface Root permits Root.PageRoot, Root.LeafRoot {

  long seqLo();

  /** Inclusive. */
  long seqHi();

  long minTimestampMs();

  long maxTimestampMs();

  /** Segments below this root (1 for an open leaf entry). */
  long segmentCount();

  /**
   * A sealed page referenced from an open index section.
   *
   * @param reference the section entry
   */
  record PageRoot(IndexEntry reference) implements Root {
    public PageRoot {
      Objects.requireNonNull(reference, "reference");
    }

    @Override
    public long seqLo() {
      return reference.seqLo();
    }

    @Override
    public long seqHi() {
      return reference.seqHi();
    }

    @Override
    public long minTimestampMs() {
      return reference.minTimestampMs();
    }

    @Override
    public long maxTimestampMs() {
      return reference.maxTimestampMs();
    }

    @Override
    public long segmentCount() {
      return reference.segmentCount();
    }
  }

  /**
   * A segment in the open leaf, held inline in the head.
   *
   * @param entry the active entry
   */
  record LeafRoot(LeafEntry entry) implements Root {
    public LeafRoot {
      Objects.requireNonNull(entry, "entry");
    }

    @Override
    public long seqLo() {
      return entry.baseLsn();
    }

    @Override
    public long seqHi() {
      return entry.lastLsn();
    }

    @Override
    public long minTimestampMs() {
      return entry.minTimestampMs();
    }

    @Override
    public long maxTimestampMs() {
      return entry.maxTimestampMs();
    }

    @Override
    public long segmentCount() {
      return 1;
    }
  }
}
