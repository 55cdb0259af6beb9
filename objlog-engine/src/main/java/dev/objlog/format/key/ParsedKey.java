package dev.objlog.format.key;

import java.util.Objects;

/**
 * What {@link PartitionKeys#parse} recognised an object key as. LSNs, epochs and generations are
 * unsigned 64-bit values held in {@code long}s; ids are 32 lowercase hex digits.
 *
 * <p>Thread-safety: implementations are immutable.
 */
public sealed interface ParsedKey
    permits ParsedKey.Head,
        ParsedKey.Page,
        ParsedKey.RetentionMailbox,
        ParsedKey.GcState,
        ParsedKey.Segment,
        ParsedKey.Staging {

  /** The key that was parsed. */
  String key();

  /** The partition's {@code head.plc}. */
  record Head(String key) implements ParsedKey {
    public Head {
      Objects.requireNonNull(key, "key");
    }
  }

  /**
   * A sealed catalog page.
   *
   * @param level 0 for a leaf page, 1..63 for an index page
   * @param seqLo first LSN covered
   * @param seqHi last LSN covered, ≥ seqLo (unsigned)
   * @param generation the sealing generation, non-zero
   * @param pageIdHex the page id, 32 lowercase hex digits
   */
  record Page(String key, int level, long seqLo, long seqHi, long generation, String pageIdHex)
      implements ParsedKey {
    public Page {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(pageIdHex, "pageIdHex");
    }

    public boolean isLeaf() {
      return level == 0;
    }
  }

  /** {@code maintenance/retention.json}. */
  record RetentionMailbox(String key) implements ParsedKey {
    public RetentionMailbox {
      Objects.requireNonNull(key, "key");
    }
  }

  /** {@code maintenance/gc/state.json}. */
  record GcState(String key) implements ParsedKey {
    public GcState {
      Objects.requireNonNull(key, "key");
    }
  }

  /**
   * A committed segment object.
   *
   * @param baseLsn the segment's first LSN
   * @param writerEpoch the epoch it was written under, non-zero
   * @param segmentUuidHex the segment uuid, 32 lowercase hex digits, non-zero
   */
  record Segment(String key, long baseLsn, long writerEpoch, String segmentUuidHex)
      implements ParsedKey {
    public Segment {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(segmentUuidHex, "segmentUuidHex");
    }
  }

  /**
   * A provider's staging object for a segment upload in progress.
   *
   * @param child the provider-specific remainder after the segment's staging directory
   */
  record Staging(String key, long baseLsn, long writerEpoch, String segmentUuidHex, String child)
      implements ParsedKey {
    public Staging {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(segmentUuidHex, "segmentUuidHex");
      Objects.requireNonNull(child, "child");
    }
  }
}
