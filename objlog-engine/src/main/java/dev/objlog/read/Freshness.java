package dev.objlog.read;

/**
 * How fresh the catalog head behind a read must be (PROTOCOLS.md §5.4). The head decides which
 * LSNs exist: a read never returns records at or after the head's next LSN, so a stale head can
 * only hide new records, never show wrong ones.
 */
public enum Freshness {
  /**
   * Use the head this reader last saw; load it once if the reader has none. No request when the
   * head is known, so new commits stay invisible until something refreshes it.
   */
  CACHED,
  /**
   * The default: use the known head, and refresh it (one conditional GET, which transfers no body
   * when nothing changed) only when the read starts at or beyond its next LSN, i.e. at the tail.
   */
  ON_TAIL,
  /** Refresh the head before every read. */
  LATEST
}
