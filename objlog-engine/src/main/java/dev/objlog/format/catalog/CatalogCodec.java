package dev.objlog.format.catalog;

import static dev.objlog.format.catalog.CatalogFormat.HEAD_HEADER_SIZE;
import static dev.objlog.format.catalog.CatalogFormat.HEAD_MAGIC;
import static dev.objlog.format.catalog.CatalogFormat.INDEX_ENTRY_SIZE;
import static dev.objlog.format.catalog.CatalogFormat.INDEX_MAGIC;
import static dev.objlog.format.catalog.CatalogFormat.LEAF_ENTRY_SIZE;
import static dev.objlog.format.catalog.CatalogFormat.LEAF_MAGIC;
import static dev.objlog.format.catalog.CatalogFormat.MAX_INDEX_ENTRIES;
import static dev.objlog.format.catalog.CatalogFormat.MAX_LEAF_ENTRIES;
import static dev.objlog.format.catalog.CatalogFormat.MAX_OPEN_INDEX_LEVEL;
import static dev.objlog.format.catalog.CatalogFormat.MIN_HEAD_SIZE;
import static dev.objlog.format.catalog.CatalogFormat.MIN_INDEX_LIMIT;
import static dev.objlog.format.catalog.CatalogFormat.PAGE_HEADER_SIZE;
import static dev.objlog.format.catalog.CatalogFormat.SECTION_HEADER_SIZE;
import static dev.objlog.format.catalog.CatalogFormat.SECTION_MAGIC;
import static dev.objlog.format.catalog.CatalogFormat.SEGMENT_LAYOUT_V1;
import static dev.objlog.format.catalog.CatalogFormat.TRAILER_MAGIC;
import static dev.objlog.format.catalog.CatalogFormat.TRAILER_SIZE;
import static dev.objlog.format.catalog.CatalogFormat.VERSION;

import dev.objlog.CorruptObjectException;
import dev.objlog.IntegrityException;
import dev.objlog.InvalidArgumentException;
import dev.objlog.UnsupportedVersionException;
import dev.objlog.format.HashAlgorithm;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Encodes and decodes catformat v1 heads and pages, applying every rule of the format.
 *
 * <p>Decoding checks, in this order: minimum size; header magic, version (else {@link
 * UnsupportedVersionException}), header length and reserved bytes; header fields that bound
 * what follows (hash algorithm, segment layout, limits, counts, and for pages the exact size from
 * the declared entry count) so nothing is allocated beyond validated counts; the trailer (magic,
 * length, reserved bytes, then trailer hash, then body hash, a mismatch being an {@link
 * IntegrityException}); entries and their reserved bytes; the format's semantic rules; finally
 * the caller's expected identity. Every failure is a {@link CorruptObjectException} (or one of
 * its subclasses); hostile bytes never surface a JDK runtime exception.
 *
 * <p>Encoding validates the same rules and reports a violation as {@link
 * InvalidArgumentException}, since the bad value came from the caller.
 *
 * <p>Thread-safety: stateless and safe to share.
 */
public final class CatalogCodec {
  private CatalogCodec() {}

  // ---------------------------------------------------------------- heads

  /**
   * Encodes a head after checking every head rule.
   *
   * @throws InvalidArgumentException if the head breaks a rule of the format
   */
  public static byte[] encodeHead(Head head) {
    try {
      CatalogRules.head(head);
    } catch (CorruptObjectException e) {
      throw new InvalidArgumentException("cannot encode head: " + e.getMessage());
    }
    byte[] out = new byte[head.encodedSize()];
    ByteBuffer b = ByteBuffer.wrap(out);
    b.put(0, HEAD_MAGIC);
    b.putShort(4, (short) VERSION);
    b.putShort(6, (short) HEAD_HEADER_SIZE);
    b.putInt(8, head.flags());
    b.putInt(12, head.partition());
    b.putShort(16, (short) head.hashAlgorithm().id());
    b.putShort(18, (short) SEGMENT_LAYOUT_V1);
    b.putInt(20, head.leafLimit());
    b.putInt(24, head.indexLimit());
    b.putInt(28, head.activeCount());
    b.putInt(32, head.levelCount());
    b.putLong(40, head.nextLsn());
    b.putLong(48, head.oldestLsn());
    b.putLong(56, head.appliedRetentionLsn());
    b.putLong(64, head.appliedRetentionVersion());
    b.putLong(72, head.writerEpoch());
    b.putLong(80, head.generation());
    b.putLong(88, head.segmentCount());
    head.writerId().writeTo(out, 96);
    head.streamKey().writeTo(out, 112);
    head.dataRootKey().writeTo(out, 144);
    b.putLong(176, head.reachableSegmentCount());
    int offset = HEAD_HEADER_SIZE;
    LeafEntry last = head.lastSegment();
    if (last != null) {
      writeLeafEntry(b, offset, last);
    }
    offset += LEAF_ENTRY_SIZE;
    for (LeafEntry entry : head.active()) {
      writeLeafEntry(b, offset, entry);
      offset += LEAF_ENTRY_SIZE;
    }
    List<List<IndexEntry>> sections = head.sections();
    for (int i = 0; i < sections.size(); i++) {
      List<IndexEntry> section = sections.get(i);
      b.put(offset, SECTION_MAGIC);
      b.put(offset + 4, (byte) (i + 1));
      b.putInt(offset + 8, section.size());
      offset += SECTION_HEADER_SIZE;
      for (IndexEntry entry : section) {
        writeIndexEntry(b, offset, entry);
        offset += INDEX_ENTRY_SIZE;
      }
    }
    seal(out, head.hashAlgorithm());
    return out;
  }

  /**
   * Decodes and validates a head without identity expectations (scrub, corpus checks).
   *
   * @throws CorruptObjectException if the bytes are not a valid catformat v1 head
   */
  public static Head decodeHead(byte[] bytes) {
    return decodeHeadInternal(bytes);
  }

  /**
   * Decodes and validates a head, then requires it to belong to {@code expected}.
   *
   * @throws CorruptObjectException if the bytes are not a valid head
   * @throws IntegrityException if the head belongs to another partition, stream or data root
   */
  public static Head decodeHead(byte[] bytes, CatalogIdentity expected) {
    Head head = decodeHeadInternal(bytes);
    checkIdentity(head, expected);
    return head;
  }

  /**
   * Checks every head rule on an in-memory head.
   *
   * @throws CorruptObjectException naming the first rule broken
   */
  public static void validateHead(Head head) {
    CatalogRules.head(head);
  }

  /**
   * Requires a head to carry the expected partition, stream key and data-root key.
   *
   * @throws IntegrityException on any mismatch
   */
  public static void checkIdentity(Head head, CatalogIdentity expected) {
    if (head.partition() != expected.partition()) {
      throw new IntegrityException("catalog: head belongs to partition "
          + Integer.toUnsignedString(head.partition()) + ", expected "
          + Integer.toUnsignedString(expected.partition()));
    }
    if (!head.streamKey().equals(expected.streamKey())) {
      throw new IntegrityException("catalog: head stream_key " + head.streamKey()
          + " differs from the expected " + expected.streamKey());
    }
    if (!head.dataRootKey().equals(expected.dataRootKey())) {
      throw new IntegrityException("catalog: head data_root_key " + head.dataRootKey()
          + " differs from the expected " + expected.dataRootKey());
    }
  }

  private static Head decodeHeadInternal(byte[] bytes) {
    if (bytes.length < MIN_HEAD_SIZE) {
      throw corrupt("head size " + bytes.length + " is below the minimum " + MIN_HEAD_SIZE);
    }
    ByteBuffer b = ByteBuffer.wrap(bytes);
    if (!magicAt(bytes, 0, HEAD_MAGIC)) {
      throw corrupt("head magic is " + quote(bytes, 0) + ", want \"PLCH\"");
    }
    int version = u16(b, 4);
    if (version != VERSION) {
      throw new UnsupportedVersionException("catalog: head version " + version
          + " is not supported (this build reads version " + VERSION + ")");
    }
    int headerLen = u16(b, 6);
    if (headerLen != HEAD_HEADER_SIZE) {
      throw corrupt("head header_len " + headerLen + ", want " + HEAD_HEADER_SIZE);
    }
    if (!allZero(bytes, 36, 40) || !allZero(bytes, 184, 192)) {
      throw corrupt("head header reserved bytes are non-zero");
    }
    int flags = b.getInt(8);
    int partition = b.getInt(12);
    HashAlgorithm algorithm = hashAlgorithm(u16(b, 16), "head");
    int layout = u16(b, 18);
    if (layout != SEGMENT_LAYOUT_V1) {
      throw new UnsupportedVersionException("catalog: head segment_layout_version " + layout
          + " is not supported (this build knows layout " + SEGMENT_LAYOUT_V1 + ")");
    }
    long leafLimit = u32(b, 20);
    long indexLimit = u32(b, 24);
    if (leafLimit == 0 || leafLimit > MAX_LEAF_ENTRIES
        || indexLimit < MIN_INDEX_LIMIT || indexLimit > MAX_INDEX_ENTRIES) {
      throw corrupt("head limits leaf=" + leafLimit + " index=" + indexLimit + " are invalid");
    }
    long activeCount = u32(b, 28);
    if (activeCount >= leafLimit) {
      throw corrupt("head active_count " + activeCount + " is invalid for leaf_limit " + leafLimit);
    }
    long levelCount = u32(b, 32);
    if (levelCount > MAX_OPEN_INDEX_LEVEL) {
      throw corrupt("head level_count " + levelCount + " exceeds " + MAX_OPEN_INDEX_LEVEL);
    }
    if ((flags & ~CatalogFormat.FLAG_HAS_LAST_SEGMENT) != 0) {
      throw corrupt("head flags 0x" + Integer.toHexString(flags) + " contain unknown bits");
    }
    // Both bounds follow from header fields alone, so a hostile size is refused before any
    // entry list is allocated.
    long minSize = MIN_HEAD_SIZE + activeCount * LEAF_ENTRY_SIZE + levelCount * SECTION_HEADER_SIZE;
    long maxSize = minSize + levelCount * (indexLimit - 1) * INDEX_ENTRY_SIZE;
    if (bytes.length < minSize || bytes.length > maxSize) {
      throw corrupt("head size " + bytes.length + " is outside [" + minSize + "," + maxSize
          + "] for " + activeCount + " active entries and " + levelCount + " sections");
    }
    verifyTrailer(bytes, algorithm);

    int offset = HEAD_HEADER_SIZE;
    LeafEntry lastSegment = null;
    boolean hasLast = (flags & CatalogFormat.FLAG_HAS_LAST_SEGMENT) != 0;
    if (hasLast) {
      lastSegment = readLeafEntry(bytes, b, offset, "head last_segment");
    } else if (!allZero(bytes, offset, offset + LEAF_ENTRY_SIZE)) {
      throw corrupt("head without a last segment has non-zero last_segment bytes");
    }
    offset += LEAF_ENTRY_SIZE;
    List<LeafEntry> active = new ArrayList<>((int) activeCount);
    for (int i = 0; i < activeCount; i++) {
      active.add(readLeafEntry(bytes, b, offset, "head active entry " + i));
      offset += LEAF_ENTRY_SIZE;
    }
    int bodyEnd = bytes.length - TRAILER_SIZE;
    List<List<IndexEntry>> sections = new ArrayList<>((int) levelCount);
    for (int i = 0; i < levelCount; i++) {
      int level = i + 1;
      if (bodyEnd - offset < SECTION_HEADER_SIZE) {
        throw corrupt("head truncated before section level " + level);
      }
      if (!magicAt(bytes, offset, SECTION_MAGIC)) {
        throw corrupt("head section " + level + " magic is " + quote(bytes, offset)
            + ", want \"PLCS\"");
      }
      if (!allZero(bytes, offset + 5, offset + 8) || !allZero(bytes, offset + 12, offset + 16)) {
        throw corrupt("head section " + level + " reserved bytes are non-zero");
      }
      int storedLevel = bytes[offset + 4] & 0xFF;
      if (storedLevel != level) {
        throw corrupt("head section " + level + " declares level " + storedLevel);
      }
      long count = u32(b, offset + 8);
      offset += SECTION_HEADER_SIZE;
      if (count >= indexLimit) {
        throw corrupt("head section level " + level + " count " + count
            + " is invalid for index_limit " + indexLimit);
      }
      if (bodyEnd - offset < count * INDEX_ENTRY_SIZE) {
        throw corrupt("head truncated in section level " + level);
      }
      List<IndexEntry> section = new ArrayList<>((int) count);
      for (int j = 0; j < count; j++) {
        section.add(readIndexEntry(bytes, b, offset, "head section level " + level + " entry " + j));
        offset += INDEX_ENTRY_SIZE;
      }
      sections.add(section);
    }
    if (offset != bodyEnd) {
      throw corrupt("head has " + (bodyEnd - offset) + " unclaimed body bytes");
    }
    Head head =
        new Head(
            partition,
            algorithm,
            (int) leafLimit,
            (int) indexLimit,
            b.getLong(40),
            b.getLong(48),
            b.getLong(56),
            b.getLong(64),
            b.getLong(72),
            b.getLong(80),
            b.getLong(88),
            b.getLong(176),
            Id128.read(bytes, 96),
            Key256.read(bytes, 112),
            Key256.read(bytes, 144),
            lastSegment,
            active,
            sections);
    CatalogRules.head(head);
    return head;
  }

  // ---------------------------------------------------------------- pages

  /**
   * Encodes a sealed page after checking every page rule, and computes its page id.
   *
   * @throws InvalidArgumentException if the page breaks a rule of the format
   */
  public static EncodedPage encodePage(CatalogPage page) {
    try {
      CatalogRules.page(page);
    } catch (CorruptObjectException e) {
      throw new InvalidArgumentException("cannot encode page: " + e.getMessage());
    }
    byte[] out = new byte[page.encodedSize()];
    ByteBuffer b = ByteBuffer.wrap(out);
    PageHeader h = page.header();
    boolean leaf = page instanceof LeafPage;
    b.put(0, leaf ? LEAF_MAGIC : INDEX_MAGIC);
    b.putShort(4, (short) VERSION);
    b.putShort(6, (short) PAGE_HEADER_SIZE);
    b.putInt(12, h.partition());
    b.put(16, (byte) h.level());
    b.putShort(18, (short) h.hashAlgorithm().id());
    b.putInt(20, page.entryCount());
    b.putInt(24, leaf ? LEAF_ENTRY_SIZE : INDEX_ENTRY_SIZE);
    b.putLong(32, h.seqLo());
    b.putLong(40, h.seqHi());
    b.putLong(48, h.minTimestampMs());
    b.putLong(56, h.maxTimestampMs());
    b.putLong(64, h.generation());
    b.putLong(72, h.writerEpoch());
    h.streamKey().writeTo(out, 80);
    b.putLong(112, h.segmentCount());
    int offset = PAGE_HEADER_SIZE;
    if (page instanceof LeafPage leafPage) {
      for (LeafEntry entry : leafPage.entries()) {
        writeLeafEntry(b, offset, entry);
        offset += LEAF_ENTRY_SIZE;
      }
    } else if (page instanceof IndexPage indexPage) {
      for (IndexEntry entry : indexPage.entries()) {
        writeIndexEntry(b, offset, entry);
        offset += INDEX_ENTRY_SIZE;
      }
    }
    seal(out, h.hashAlgorithm());
    return new EncodedPage(out, CatalogFormat.pageIdOfBody(out, out.length - TRAILER_SIZE), page);
  }

  /**
   * Checks every page rule on an in-memory page.
   *
   * @throws CorruptObjectException naming the first rule broken
   */
  public static void validatePage(CatalogPage page) {
    CatalogRules.page(page);
  }

  /**
   * Decodes and validates a leaf or index page without identity expectations.
   *
   * @throws CorruptObjectException if the bytes are not a valid catformat v1 page
   */
  public static DecodedPage decodePage(byte[] bytes) {
    return decodePageInternal(bytes, null);
  }

  /**
   * Decodes and validates a page, then requires it to carry the expected partition and stream
   * key (pages carry no data-root key).
   *
   * @throws CorruptObjectException if the bytes are not a valid page
   * @throws IntegrityException if the page belongs to another partition or stream
   */
  public static DecodedPage decodePage(byte[] bytes, CatalogIdentity expected) {
    DecodedPage page = decodePageInternal(bytes, null);
    checkPageIdentity(page.page().header(), expected);
    return page;
  }

  /**
   * Decodes a page reached through {@code reference} and checks it against that reference: the
   * kind follows the referenced level, the recomputed page id must match, and the header must
   * agree on partition, stream key, level, entry count, LSN and timestamp bounds, generation and
   * segment count, with a writer epoch no greater than the parent's ({@code parentWriterEpoch}:
   * the parent page's epoch, or the head's for a root).
   *
   * @throws CorruptObjectException if the bytes are not a valid page of the expected kind
   * @throws IntegrityException if the page does not match the reference or identity
   */
  public static DecodedPage decodeChild(
      byte[] bytes, IndexEntry reference, long parentWriterEpoch, CatalogIdentity expected) {
    DecodedPage page =
        decodePageInternal(bytes, reference.level() == 0 ? LEAF_MAGIC : INDEX_MAGIC);
    checkChild(page, reference, parentWriterEpoch, expected);
    return page;
  }

  /**
   * The reference checks of {@link #decodeChild} on an already decoded page.
   *
   * @throws IntegrityException if the page does not match the reference or identity
   */
  public static void checkChild(
      DecodedPage child, IndexEntry reference, long parentWriterEpoch, CatalogIdentity expected) {
    if (!child.pageId().equals(reference.pageId())) {
      throw new IntegrityException("catalog: page id " + child.pageId()
          + " differs from the referenced " + reference.pageId());
    }
    PageHeader h = child.page().header();
    checkPageIdentity(h, expected);
    if (Long.compareUnsigned(h.writerEpoch(), parentWriterEpoch) > 0) {
      throw new IntegrityException("catalog: page " + child.pageId() + " writer_epoch "
          + Long.toUnsignedString(h.writerEpoch()) + " exceeds its parent's "
          + Long.toUnsignedString(parentWriterEpoch));
    }
    if (h.level() != reference.level()
        || child.page().entryCount() != reference.entryCount()
        || h.seqLo() != reference.seqLo()
        || h.seqHi() != reference.seqHi()
        || h.minTimestampMs() != reference.minTimestampMs()
        || h.maxTimestampMs() != reference.maxTimestampMs()
        || h.generation() != reference.generation()
        || h.segmentCount() != reference.segmentCount()) {
      throw new IntegrityException("catalog: page " + child.pageId()
          + " header does not match its reference " + reference);
    }
  }

  private static void checkPageIdentity(PageHeader h, CatalogIdentity expected) {
    if (h.partition() != expected.partition()) {
      throw new IntegrityException("catalog: page belongs to partition "
          + Integer.toUnsignedString(h.partition()) + ", expected "
          + Integer.toUnsignedString(expected.partition()));
    }
    if (!h.streamKey().equals(expected.streamKey())) {
      throw new IntegrityException("catalog: page stream_key " + h.streamKey()
          + " differs from the expected " + expected.streamKey());
    }
  }

  private static DecodedPage decodePageInternal(byte[] bytes, byte @Nullable [] wantMagic) {
    if (bytes.length < CatalogFormat.MIN_PAGE_PREFIX) {
      throw corrupt("page size " + bytes.length + " is below the minimum "
          + CatalogFormat.MIN_PAGE_PREFIX);
    }
    ByteBuffer b = ByteBuffer.wrap(bytes);
    boolean leaf = magicAt(bytes, 0, LEAF_MAGIC);
    if (!leaf && !magicAt(bytes, 0, INDEX_MAGIC)) {
      throw corrupt("unknown page magic " + quote(bytes, 0));
    }
    int version = u16(b, 4);
    if (version != VERSION) {
      throw new UnsupportedVersionException("catalog: page version " + version
          + " is not supported (this build reads version " + VERSION + ")");
    }
    int headerLen = u16(b, 6);
    if (headerLen != PAGE_HEADER_SIZE) {
      throw corrupt("page header_len " + headerLen + ", want " + PAGE_HEADER_SIZE);
    }
    if (bytes[17] != 0 || !allZero(bytes, 28, 32) || !allZero(bytes, 120, 128)) {
      throw corrupt("page header reserved bytes are non-zero");
    }
    int flags = b.getInt(8);
    if (flags != 0) {
      throw corrupt("page flags 0x" + Integer.toHexString(flags) + " contain unknown bits");
    }
    HashAlgorithm algorithm = hashAlgorithm(u16(b, 18), "page");
    PageHeader header =
        new PageHeader(
            b.getInt(12),
            bytes[16] & 0xFF,
            algorithm,
            b.getLong(32),
            b.getLong(40),
            b.getLong(48),
            b.getLong(56),
            b.getLong(64),
            b.getLong(72),
            Key256.read(bytes, 80),
            b.getLong(112));
    CatalogRules.commonPageHeader(header);
    if (wantMagic != null && !magicAt(bytes, 0, wantMagic)) {
      throw corrupt("page magic is " + quote(bytes, 0) + ", want "
          + quote(wantMagic, 0));
    }
    long entryCount = u32(b, 20);
    long entrySize = u32(b, 24);
    int wantEntrySize = leaf ? LEAF_ENTRY_SIZE : INDEX_ENTRY_SIZE;
    int maxEntries = leaf ? MAX_LEAF_ENTRIES : MAX_INDEX_ENTRIES;
    if (entrySize != wantEntrySize) {
      throw corrupt("page entry_size " + entrySize + ", want " + wantEntrySize);
    }
    if (entryCount == 0 || entryCount > maxEntries) {
      throw corrupt("page entry_count " + entryCount + " is outside [1," + maxEntries + "]");
    }
    long wantSize = PAGE_HEADER_SIZE + entryCount * wantEntrySize + TRAILER_SIZE;
    if (bytes.length != wantSize) {
      throw corrupt("page size " + bytes.length + ", want " + wantSize + " for " + entryCount
          + " entries");
    }
    verifyTrailer(bytes, algorithm);
    int count = (int) entryCount;
    int offset = PAGE_HEADER_SIZE;
    CatalogPage page;
    if (leaf) {
      List<LeafEntry> entries = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        entries.add(readLeafEntry(bytes, b, offset, "leaf entry " + i));
        offset += LEAF_ENTRY_SIZE;
      }
      LeafPage leafPage = new LeafPage(header, entries);
      CatalogRules.leafPage(leafPage);
      page = leafPage;
    } else {
      List<IndexEntry> entries = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        entries.add(readIndexEntry(bytes, b, offset, "index entry " + i));
        offset += INDEX_ENTRY_SIZE;
      }
      IndexPage indexPage = new IndexPage(header, entries);
      CatalogRules.indexPage(indexPage);
      page = indexPage;
    }
    return new DecodedPage(page, CatalogFormat.pageIdOfBody(bytes, bytes.length - TRAILER_SIZE));
  }

  // ---------------------------------------------------------------- entries

  private static void writeLeafEntry(ByteBuffer b, int at, LeafEntry e) {
    b.putLong(at, e.baseLsn());
    b.putLong(at + 8, e.lastLsn());
    b.putLong(at + 16, e.minTimestampMs());
    b.putLong(at + 24, e.maxTimestampMs());
    b.putInt(at + 32, (int) e.recordCount());
    b.putInt(at + 36, (int) e.blockCount());
    b.putLong(at + 40, e.sizeBytes());
    b.putLong(at + 48, e.blockIndexOffset());
    b.putInt(at + 56, (int) e.blockIndexLength());
    b.putShort(at + 60, (short) e.codec());
    b.putShort(at + 62, (short) e.hashAlgorithm());
    b.putLong(at + 64, e.segmentHash());
    b.putLong(at + 72, e.trailerHash());
    b.putLong(at + 80, e.writerEpoch());
    e.segmentUuid().writeTo(b.array(), at + 88);
    e.writerTag().writeTo(b.array(), at + 104);
  }

  private static LeafEntry readLeafEntry(byte[] bytes, ByteBuffer b, int at, String where) {
    if (!allZero(bytes, at + 120, at + 128)) {
      throw corrupt(where + ": reserved bytes are non-zero");
    }
    return new LeafEntry(
        b.getLong(at),
        b.getLong(at + 8),
        b.getLong(at + 16),
        b.getLong(at + 24),
        u32(b, at + 32),
        u32(b, at + 36),
        b.getLong(at + 40),
        b.getLong(at + 48),
        u32(b, at + 56),
        u16(b, at + 60),
        u16(b, at + 62),
        b.getLong(at + 64),
        b.getLong(at + 72),
        b.getLong(at + 80),
        Id128.read(bytes, at + 88),
        Id128.read(bytes, at + 104));
  }

  private static void writeIndexEntry(ByteBuffer b, int at, IndexEntry e) {
    b.put(at, (byte) e.level());
    b.putInt(at + 4, (int) e.entryCount());
    b.putLong(at + 8, e.seqLo());
    b.putLong(at + 16, e.seqHi());
    b.putLong(at + 24, e.minTimestampMs());
    b.putLong(at + 32, e.maxTimestampMs());
    b.putLong(at + 40, e.generation());
    e.pageId().writeTo(b.array(), at + 48);
    b.putLong(at + 64, e.segmentCount());
  }

  private static IndexEntry readIndexEntry(byte[] bytes, ByteBuffer b, int at, String where) {
    if (!allZero(bytes, at + 1, at + 4) || !allZero(bytes, at + 72, at + 80)) {
      throw corrupt(where + ": reserved bytes are non-zero");
    }
    return new IndexEntry(
        bytes[at] & 0xFF,
        u32(b, at + 4),
        b.getLong(at + 8),
        b.getLong(at + 16),
        b.getLong(at + 24),
        b.getLong(at + 32),
        b.getLong(at + 40),
        Id128.read(bytes, at + 48),
        b.getLong(at + 64));
  }

  // ---------------------------------------------------------------- trailer

  /** Fills the last 32 bytes of {@code out} with the trailer over everything before it. */
  private static void seal(byte[] out, HashAlgorithm algorithm) {
    int at = out.length - TRAILER_SIZE;
    ByteBuffer b = ByteBuffer.wrap(out);
    b.put(at, TRAILER_MAGIC);
    b.putShort(at + 4, (short) TRAILER_SIZE);
    b.putLong(at + 8, algorithm.hash(out, 0, at));
    // The trailer hash covers the trailer with its own field still zero.
    b.putLong(at + 16, algorithm.hash(out, at, TRAILER_SIZE));
  }

  private static void verifyTrailer(byte[] bytes, HashAlgorithm algorithm) {
    int at = bytes.length - TRAILER_SIZE;
    ByteBuffer b = ByteBuffer.wrap(bytes);
    if (!magicAt(bytes, at, TRAILER_MAGIC)) {
      throw corrupt("trailer magic is " + quote(bytes, at) + ", want \"PLCT\"");
    }
    int length = u16(b, at + 4);
    if (length != TRAILER_SIZE) {
      throw corrupt("trailer_len " + length + ", want " + TRAILER_SIZE);
    }
    if (!allZero(bytes, at + 6, at + 8) || !allZero(bytes, at + 24, at + 32)) {
      throw corrupt("trailer reserved bytes are non-zero");
    }
    byte[] check = Arrays.copyOfRange(bytes, at, bytes.length);
    Arrays.fill(check, 16, 24, (byte) 0);
    long wantTrailer = b.getLong(at + 16);
    long gotTrailer = algorithm.hash(check, 0, TRAILER_SIZE);
    if (gotTrailer != wantTrailer) {
      throw new IntegrityException("catalog: trailer hash " + hex(gotTrailer) + " differs from the"
          + " stored " + hex(wantTrailer));
    }
    long wantBody = b.getLong(at + 8);
    long gotBody = algorithm.hash(bytes, 0, at);
    if (gotBody != wantBody) {
      throw new IntegrityException("catalog: body hash " + hex(gotBody) + " differs from the"
          + " stored " + hex(wantBody));
    }
  }

  // ---------------------------------------------------------------- helpers

  private static HashAlgorithm hashAlgorithm(int id, String what) {
    try {
      return HashAlgorithm.fromId(id);
    } catch (UnsupportedVersionException e) {
      throw new UnsupportedVersionException("catalog: " + what + " " + e.getMessage());
    }
  }

  private static CorruptObjectException corrupt(String message) {
    return new CorruptObjectException("catalog: " + message);
  }

  private static int u16(ByteBuffer b, int at) {
    return Short.toUnsignedInt(b.getShort(at));
  }

  private static long u32(ByteBuffer b, int at) {
    return Integer.toUnsignedLong(b.getInt(at));
  }

  private static boolean allZero(byte[] bytes, int from, int to) {
    for (int i = from; i < to; i++) {
      if (bytes[i] != 0) {
        return false;
      }
    }
    return true;
  }

  private static boolean magicAt(byte[] bytes, int at, byte[] magic) {
    return Arrays.equals(bytes, at, at + magic.length, magic, 0, magic.length);
  }

  private static String quote(byte[] bytes, int at) {
    StringBuilder s = new StringBuilder("\"");
    for (int i = at; i < at + 4; i++) {
      int c = bytes[i] & 0xFF;
      if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
        s.append((char) c);
      } else {
        s.append(String.format("\\x%02x", c));
      }
    }
    return s.append('"').toString();
  }

  private static String hex(long value) {
    return String.format("%016x", value);
  }
}
