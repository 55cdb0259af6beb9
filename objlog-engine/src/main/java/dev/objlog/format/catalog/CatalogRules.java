package dev.objlog.format.catalog;

import static dev.objlog.format.catalog.CatalogFormat.MAX_INDEX_ENTRIES;
import static dev.objlog.format.catalog.CatalogFormat.MAX_INDEX_LEVEL;
import static dev.objlog.format.catalog.CatalogFormat.MAX_LEAF_ENTRIES;
import static dev.objlog.format.catalog.CatalogFormat.MAX_OPEN_INDEX_LEVEL;
import static dev.objlog.format.catalog.CatalogFormat.MAX_RECORD_LSN;
import static dev.objlog.format.catalog.CatalogFormat.MIN_INDEX_LIMIT;

import dev.objlog.CorruptObjectException;
import java.util.List;

/**
 * The semantic rules of catformat v1 over decoded values, in the order the Go validator applies
 * them. Every violation is a {@link CorruptObjectException}; encoders translate it into an
 * invalid-argument error because there the bad values came from the caller.
 */
final class CatalogRules {
  private CatalogRules() {}

  private static CorruptObjectException invalid(String message) {
    return new CorruptObjectException("catalog: " + message);
  }

  private static String u(long value) {
    return Long.toUnsignedString(value);
  }

  private static boolean gt(long a, long b) {
    return Long.compareUnsigned(a, b) > 0;
  }

  private static boolean lt(long a, long b) {
    return Long.compareUnsigned(a, b) < 0;
  }

  static void leafEntry(LeafEntry e, String where) {
    if (gt(e.baseLsn(), e.lastLsn()) || gt(e.lastLsn(), MAX_RECORD_LSN)) {
      throw invalid(where + ": LSN range [" + u(e.baseLsn()) + "," + u(e.lastLsn()) + "] is invalid");
    }
    // last ≤ 2^64−2, so the span cannot wrap to zero.
    long span = e.lastLsn() - e.baseLsn() + 1;
    if (gt(span, LeafEntry.U32_MAX) || e.recordCount() == 0 || e.recordCount() != span) {
      throw invalid(where + ": record_count " + e.recordCount() + " does not match the LSN span "
          + u(span));
    }
    if (e.minTimestampMs() > e.maxTimestampMs()) {
      throw invalid(where + ": timestamp range [" + e.minTimestampMs() + "," + e.maxTimestampMs()
          + "] is inverted");
    }
    if (e.blockCount() == 0) {
      throw invalid(where + ": block_count is zero");
    }
    if (e.sizeBytes() == 0) {
      throw invalid(where + ": size_bytes is zero");
    }
    if (e.blockIndexLength() == 0) {
      throw invalid(where + ": block_index_length is zero");
    }
    if (e.codec() != CatalogFormat.CODEC_NONE && e.codec() != CatalogFormat.CODEC_ZSTD) {
      throw invalid(where + ": unknown segment codec " + e.codec());
    }
    if (e.hashAlgorithm() != 0 && e.hashAlgorithm() != 1) {
      throw invalid(where + ": unknown segment hash algorithm " + e.hashAlgorithm());
    }
    if (e.writerEpoch() == 0) {
      throw invalid(where + ": writer_epoch is zero");
    }
    if (e.segmentUuid().isZero()) {
      throw invalid(where + ": segment_uuid is zero");
    }
    if (e.writerTag().isZero()) {
      throw invalid(where + ": writer_tag is zero");
    }
  }

  static void indexEntry(IndexEntry e, String where) {
    if (e.level() > MAX_INDEX_LEVEL) {
      throw invalid(where + ": child level " + e.level() + " exceeds " + MAX_INDEX_LEVEL);
    }
    if (gt(e.seqLo(), e.seqHi()) || gt(e.seqHi(), MAX_RECORD_LSN)) {
      throw invalid(where + ": LSN range [" + u(e.seqLo()) + "," + u(e.seqHi()) + "] is invalid");
    }
    if (e.minTimestampMs() > e.maxTimestampMs()) {
      throw invalid(where + ": timestamp range [" + e.minTimestampMs() + "," + e.maxTimestampMs()
          + "] is inverted");
    }
    long limit = e.level() == 0 ? MAX_LEAF_ENTRIES : MAX_INDEX_ENTRIES;
    if (e.entryCount() == 0 || e.entryCount() > limit) {
      throw invalid(where + ": entry_count " + e.entryCount() + " is outside [1," + limit + "]");
    }
    if (e.generation() == 0) {
      throw invalid(where + ": generation is zero");
    }
    if (e.pageId().isZero()) {
      throw invalid(where + ": page_id is zero");
    }
    if (lt(e.segmentCount(), e.entryCount())) {
      throw invalid(where + ": segment_count " + u(e.segmentCount()) + " is below entry_count "
          + e.entryCount());
    }
    if (e.level() == 0 && e.segmentCount() != e.entryCount()) {
      throw invalid(where + ": a leaf reference has segment_count " + u(e.segmentCount())
          + " but entry_count " + e.entryCount());
    }
    long span = e.seqHi() - e.seqLo() + 1;
    if (gt(e.segmentCount(), span)) {
      throw invalid(where + ": segment_count " + u(e.segmentCount()) + " exceeds the LSN span "
          + u(span));
    }
  }

  static void commonPageHeader(PageHeader h) {
    if (h.generation() == 0) {
      throw invalid("page generation is zero");
    }
    if (h.writerEpoch() == 0) {
      throw invalid("page writer_epoch is zero");
    }
    if (h.streamKey().isZero()) {
      throw invalid("page stream_key is zero");
    }
  }

  static void leafPage(LeafPage page) {
    PageHeader h = page.header();
    commonPageHeader(h);
    if (h.level() != 0) {
      throw invalid("leaf page level is " + h.level() + ", want 0");
    }
    List<LeafEntry> entries = page.entries();
    if (entries.isEmpty() || entries.size() > MAX_LEAF_ENTRIES) {
      throw invalid("leaf page holds " + entries.size() + " entries, outside [1," + MAX_LEAF_ENTRIES
          + "]");
    }
    if (h.segmentCount() != entries.size()) {
      throw invalid("leaf page segment_count " + u(h.segmentCount()) + " differs from its "
          + entries.size() + " entries");
    }
    for (int i = 0; i < entries.size(); i++) {
      LeafEntry entry = entries.get(i);
      leafEntry(entry, "leaf entry " + i);
      if (i == 0) {
        continue;
      }
      LeafEntry previous = entries.get(i - 1);
      if (previous.lastLsn() == MAX_RECORD_LSN || entry.baseLsn() != previous.lastLsn() + 1) {
        throw invalid("leaf entries " + (i - 1) + " and " + i + " are not contiguous");
      }
      if (entry.minTimestampMs() < previous.maxTimestampMs()) {
        throw invalid("leaf timestamps decrease between entries " + (i - 1) + " and " + i);
      }
      if (lt(entry.writerEpoch(), previous.writerEpoch())) {
        throw invalid("leaf writer epochs decrease between entries " + (i - 1) + " and " + i);
      }
    }
    LeafEntry first = entries.get(0);
    LeafEntry last = entries.get(entries.size() - 1);
    if (h.seqLo() != first.baseLsn()
        || h.seqHi() != last.lastLsn()
        || h.minTimestampMs() != first.minTimestampMs()
        || h.maxTimestampMs() != last.maxTimestampMs()) {
      throw invalid("leaf page bounds do not match its first and last entries");
    }
    if (lt(h.writerEpoch(), last.writerEpoch())) {
      throw invalid("leaf page writer_epoch " + u(h.writerEpoch()) + " is below its last entry's "
          + u(last.writerEpoch()));
    }
  }

  static void indexPage(IndexPage page) {
    PageHeader h = page.header();
    commonPageHeader(h);
    if (h.level() == 0 || h.level() > MAX_INDEX_LEVEL) {
      throw invalid("index page level " + h.level() + " is outside [1," + MAX_INDEX_LEVEL + "]");
    }
    List<IndexEntry> entries = page.entries();
    if (entries.isEmpty() || entries.size() > MAX_INDEX_ENTRIES) {
      throw invalid("index page holds " + entries.size() + " entries, outside [1,"
          + MAX_INDEX_ENTRIES + "]");
    }
    long segments = 0;
    for (int i = 0; i < entries.size(); i++) {
      IndexEntry entry = entries.get(i);
      indexEntry(entry, "index entry " + i);
      if (entry.level() + 1 != h.level()) {
        throw invalid("index entry " + i + " has child level " + entry.level() + ", want "
            + (h.level() - 1));
      }
      if (gt(entry.generation(), h.generation())) {
        throw invalid("index entry " + i + " generation " + u(entry.generation())
            + " exceeds the page generation " + u(h.generation()));
      }
      long sum = segments + entry.segmentCount();
      if (lt(sum, segments)) {
        throw invalid("index page segment counts overflow 64 bits");
      }
      segments = sum;
      if (i == 0) {
        continue;
      }
      IndexEntry previous = entries.get(i - 1);
      if (previous.seqHi() == MAX_RECORD_LSN || entry.seqLo() != previous.seqHi() + 1) {
        throw invalid("index entries " + (i - 1) + " and " + i + " are not contiguous");
      }
      if (entry.minTimestampMs() < previous.maxTimestampMs()) {
        throw invalid("index timestamps decrease between entries " + (i - 1) + " and " + i);
      }
    }
    if (h.segmentCount() != segments) {
      throw invalid("index page segment_count " + u(h.segmentCount()) + " differs from the sum "
          + u(segments) + " of its entries");
    }
    IndexEntry first = entries.get(0);
    IndexEntry last = entries.get(entries.size() - 1);
    if (h.seqLo() != first.seqLo()
        || h.seqHi() != last.seqHi()
        || h.minTimestampMs() != first.minTimestampMs()
        || h.maxTimestampMs() != last.maxTimestampMs()) {
      throw invalid("index page bounds do not match its first and last entries");
    }
  }

  static void page(CatalogPage page) {
    if (page instanceof LeafPage leaf) {
      leafPage(leaf);
    } else if (page instanceof IndexPage index) {
      indexPage(index);
    }
  }

  static void head(Head head) {
    if (head.leafLimit() < 1 || head.leafLimit() > MAX_LEAF_ENTRIES) {
      throw invalid("head leaf_limit " + head.leafLimit() + " is outside [1," + MAX_LEAF_ENTRIES
          + "]");
    }
    if (head.indexLimit() < MIN_INDEX_LIMIT || head.indexLimit() > MAX_INDEX_ENTRIES) {
      throw invalid("head index_limit " + head.indexLimit() + " is outside [" + MIN_INDEX_LIMIT
          + "," + MAX_INDEX_ENTRIES + "]");
    }
    if (head.active().size() >= head.leafLimit()) {
      throw invalid("head holds " + head.active().size() + " active entries; leaf_limit "
          + head.leafLimit() + " allows at most " + (head.leafLimit() - 1));
    }
    if (head.sections().size() > MAX_OPEN_INDEX_LEVEL) {
      throw invalid("head holds " + head.sections().size() + " sections, more than "
          + MAX_OPEN_INDEX_LEVEL);
    }
    if (gt(head.oldestLsn(), head.nextLsn()) || gt(head.appliedRetentionLsn(), head.nextLsn())) {
      throw invalid("head LSN state next=" + u(head.nextLsn()) + " oldest=" + u(head.oldestLsn())
          + " retention=" + u(head.appliedRetentionLsn()) + " is inconsistent");
    }
    if (head.appliedRetentionVersion() == 0 && head.appliedRetentionLsn() != 0) {
      throw invalid("head has applied_retention_lsn " + u(head.appliedRetentionLsn())
          + " without a retention version");
    }
    if ((head.writerEpoch() == 0) != head.writerId().isZero()) {
      throw invalid("head writer_epoch and writer_id must be zero together");
    }
    if (gt(head.reachableSegmentCount(), head.segmentCount())) {
      throw invalid("head reachable_segment_count " + u(head.reachableSegmentCount())
          + " exceeds segment_count " + u(head.segmentCount()));
    }
    if (head.streamKey().isZero()) {
      throw invalid("head stream_key is zero");
    }
    if (head.dataRootKey().isZero()) {
      throw invalid("head data_root_key is zero");
    }

    List<List<IndexEntry>> sections = head.sections();
    for (int i = 0; i < sections.size(); i++) {
      int level = i + 1;
      List<IndexEntry> section = sections.get(i);
      if (section.size() >= head.indexLimit()) {
        throw invalid("head section level " + level + " holds " + section.size()
            + " entries; index_limit " + head.indexLimit() + " allows at most "
            + (head.indexLimit() - 1));
      }
      for (int j = 0; j < section.size(); j++) {
        IndexEntry entry = section.get(j);
        String where = "head section level " + level + " entry " + j;
        indexEntry(entry, where);
        if (entry.level() + 1 != level) {
          throw invalid(where + " has child level " + entry.level() + ", want " + (level - 1));
        }
        if (gt(entry.generation(), head.generation())) {
          throw invalid(where + " generation " + u(entry.generation())
              + " exceeds the head generation " + u(head.generation()));
        }
      }
    }
    List<LeafEntry> active = head.active();
    for (int i = 0; i < active.size(); i++) {
      LeafEntry entry = active.get(i);
      leafEntry(entry, "head active entry " + i);
      if (gt(entry.writerEpoch(), head.writerEpoch())) {
        throw invalid("head active entry " + i + " writer_epoch " + u(entry.writerEpoch())
            + " exceeds the head writer_epoch " + u(head.writerEpoch()));
      }
      if (i > 0 && lt(entry.writerEpoch(), active.get(i - 1).writerEpoch())) {
        throw invalid("head active writer epochs decrease between entries " + (i - 1) + " and "
            + i);
      }
    }
    List<Root> roots = head.roots();

    LeafEntry last = head.lastSegment();
    if (last == null) {
      if (head.oldestLsn() != head.nextLsn()
          || head.segmentCount() != 0
          || head.reachableSegmentCount() != 0
          || !roots.isEmpty()) {
        throw invalid("a head without a last segment must be empty: oldest == next, no segments,"
            + " no roots");
      }
      return;
    }
    leafEntry(last, "head last_segment");
    if (gt(last.writerEpoch(), head.writerEpoch())) {
      throw invalid("head last_segment writer_epoch " + u(last.writerEpoch())
          + " exceeds the head writer_epoch " + u(head.writerEpoch()));
    }
    if (head.segmentCount() == 0) {
      throw invalid("head has a last segment but segment_count 0");
    }
    if (last.lastLsn() == MAX_RECORD_LSN || last.lastLsn() + 1 != head.nextLsn()) {
      throw invalid("head last_segment last_lsn " + u(last.lastLsn()) + " does not precede next_lsn "
          + u(head.nextLsn()));
    }
    if (roots.isEmpty()) {
      if (head.oldestLsn() != head.nextLsn() || head.reachableSegmentCount() != 0) {
        throw invalid("a head without roots must be fully retained: oldest == next and no"
            + " reachable segments");
      }
      return;
    }
    Root lastRoot = roots.get(roots.size() - 1);
    if (lastRoot.seqHi() != last.lastLsn()) {
      throw invalid("the last root ends at " + u(lastRoot.seqHi()) + " but last_segment at "
          + u(last.lastLsn()));
    }
    if (!active.isEmpty() && !active.get(active.size() - 1).equals(last)) {
      throw invalid("the last active entry differs from last_segment");
    }
    long reachable = 0;
    for (int i = 0; i < roots.size(); i++) {
      Root root = roots.get(i);
      long sum = reachable + root.segmentCount();
      if (lt(sum, reachable)) {
        throw invalid("head root segment counts overflow 64 bits");
      }
      reachable = sum;
      if (i == 0) {
        if (root.seqLo() != head.oldestLsn()) {
          throw invalid("the first root starts at " + u(root.seqLo()) + " but oldest_lsn is "
              + u(head.oldestLsn()));
        }
        continue;
      }
      Root previous = roots.get(i - 1);
      if (previous.seqHi() == MAX_RECORD_LSN || root.seqLo() != previous.seqHi() + 1) {
        throw invalid("head roots " + (i - 1) + " and " + i + " are not contiguous");
      }
      if (root.minTimestampMs() < previous.maxTimestampMs()) {
        throw invalid("head timestamps decrease between roots " + (i - 1) + " and " + i);
      }
    }
    if (lastRoot.seqHi() == MAX_RECORD_LSN || lastRoot.seqHi() + 1 != head.nextLsn()) {
      throw invalid("the last root ends at " + u(lastRoot.seqHi()) + ", not just before next_lsn "
          + u(head.nextLsn()));
    }
    if (reachable != head.reachableSegmentCount()) {
      throw invalid("head reachable_segment_count " + u(head.reachableSegmentCount())
          + " differs from the roots' total " + u(reachable));
    }
  }
}
