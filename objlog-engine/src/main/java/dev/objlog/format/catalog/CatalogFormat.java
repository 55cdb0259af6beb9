package dev.objlog.format.catalog;

import dev.objlog.InvalidArgumentException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The constants and size formulas of catformat v1, and the page id derivation.
 *
 * <p>Thread-safety: stateless.
 */
public final class CatalogFormat {
  /** The only catformat version this build reads and writes (u16 at offset 4 of heads and pages). */
  public static final int VERSION = 1;

  public static final int HEAD_HEADER_SIZE = 192;
  public static final int PAGE_HEADER_SIZE = 128;
  public static final int SECTION_HEADER_SIZE = 16;
  public static final int TRAILER_SIZE = 32;
  public static final int LEAF_ENTRY_SIZE = 128;
  public static final int INDEX_ENTRY_SIZE = 80;

  public static final int MAX_LEAF_ENTRIES = 1024;
  public static final int MAX_INDEX_ENTRIES = 1024;
  /** Highest level of a sealed page. */
  public static final int MAX_INDEX_LEVEL = 63;
  /** Highest level of an open index section in a head. */
  public static final int MAX_OPEN_INDEX_LEVEL = 64;
  public static final int MIN_INDEX_LIMIT = 2;

  /** Writer defaults for the fan-out recorded in a head. */
  public static final int DEFAULT_LEAF_LIMIT = 128;

  public static final int DEFAULT_INDEX_LIMIT = 128;

  /** 2^64−2 as an unsigned long: the largest LSN a record may carry. */
  public static final long MAX_RECORD_LSN = 0xFFFF_FFFF_FFFF_FFFEL;
  /** 2^64−1 as an unsigned long: never assigned to a record. */
  public static final long RESERVED_LSN = 0xFFFF_FFFF_FFFF_FFFFL;

  /** The segment key layout a head may declare; anything else is unsupported. */
  public static final int SEGMENT_LAYOUT_V1 = 1;

  /** Head flag bit 0: the head carries a last segment. */
  public static final int FLAG_HAS_LAST_SEGMENT = 1;

  /** Segment codec ids a leaf entry may carry (the segment's codec, segformat v2). */
  public static final int CODEC_NONE = 0;

  public static final int CODEC_ZSTD = 1;

  static final byte[] HEAD_MAGIC = ascii("PLCH");
  static final byte[] LEAF_MAGIC = ascii("PLCL");
  static final byte[] INDEX_MAGIC = ascii("PLCX");
  static final byte[] SECTION_MAGIC = ascii("PLCS");
  static final byte[] TRAILER_MAGIC = ascii("PLCT");

  /** Smallest well-formed head: header, last-segment slot and trailer. */
  public static final int MIN_HEAD_SIZE = HEAD_HEADER_SIZE + LEAF_ENTRY_SIZE + TRAILER_SIZE;

  /** Smallest byte count a page decoder looks at before reading its header. */
  static final int MIN_PAGE_PREFIX = PAGE_HEADER_SIZE + TRAILER_SIZE;

  private CatalogFormat() {}

  private static byte[] ascii(String magic) {
    return magic.getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * Size of a leaf page holding {@code entryCount} entries.
   *
   * @throws InvalidArgumentException unless 1 ≤ entryCount ≤ 1024
   */
  public static int leafPageSize(int entryCount) {
    checkCount(entryCount, MAX_LEAF_ENTRIES, "leaf page");
    return PAGE_HEADER_SIZE + entryCount * LEAF_ENTRY_SIZE + TRAILER_SIZE;
  }

  /**
   * Size of an index page holding {@code entryCount} entries.
   *
   * @throws InvalidArgumentException unless 1 ≤ entryCount ≤ 1024
   */
  public static int indexPageSize(int entryCount) {
    checkCount(entryCount, MAX_INDEX_ENTRIES, "index page");
    return PAGE_HEADER_SIZE + entryCount * INDEX_ENTRY_SIZE + TRAILER_SIZE;
  }

  private static void checkCount(int entryCount, int max, String what) {
    if (entryCount < 1 || entryCount > max) {
      throw new InvalidArgumentException(
          "a " + what + " holds 1.." + max + " entries, got " + entryCount);
    }
  }

  /**
   * Size of a head with {@code activeCount} open leaf entries and, for each open index section in
   * ascending level order, the given number of entries.
   *
   * @throws InvalidArgumentException for negative counts, more than 1024 entries in one place or
   *     more than 64 sections
   */
  public static int headSize(int activeCount, int... sectionEntryCounts) {
    if (activeCount < 0 || activeCount > MAX_LEAF_ENTRIES) {
      throw new InvalidArgumentException("a head holds 0..1024 active entries, got " + activeCount);
    }
    if (sectionEntryCounts.length > MAX_OPEN_INDEX_LEVEL) {
      throw new InvalidArgumentException(
          "a head holds at most 64 sections, got " + sectionEntryCounts.length);
    }
    int size = MIN_HEAD_SIZE + activeCount * LEAF_ENTRY_SIZE;
    for (int count : sectionEntryCounts) {
      if (count < 0 || count > MAX_INDEX_ENTRIES) {
        throw new InvalidArgumentException("a head section holds 0..1024 entries, got " + count);
      }
      size += SECTION_HEADER_SIZE + count * INDEX_ENTRY_SIZE;
    }
    return size;
  }

  /**
   * The largest head a writer with these limits can produce: a full open leaf and every one of
   * the 64 possible sections one entry short of sealing.
   */
  public static int maxHeadSize(int leafLimit, int indexLimit) {
    if (leafLimit < 1 || leafLimit > MAX_LEAF_ENTRIES) {
      throw new InvalidArgumentException("leaf_limit must be 1..1024, got " + leafLimit);
    }
    if (indexLimit < MIN_INDEX_LIMIT || indexLimit > MAX_INDEX_ENTRIES) {
      throw new InvalidArgumentException("index_limit must be 2..1024, got " + indexLimit);
    }
    int[] sections = new int[MAX_OPEN_INDEX_LEVEL];
    java.util.Arrays.fill(sections, indexLimit - 1);
    return headSize(leafLimit - 1, sections);
  }

  /**
   * The page id of an encoded page: the first 16 bytes of SHA-256 over everything but the
   * trailer. It is not stored in the page; parents and object keys carry it.
   *
   * @throws InvalidArgumentException if {@code encodedPage} is shorter than a trailer
   */
  public static Id128 pageId(byte[] encodedPage) {
    if (encodedPage.length < TRAILER_SIZE) {
      throw new InvalidArgumentException(
          "a page is at least " + TRAILER_SIZE + " bytes, got " + encodedPage.length);
    }
    return pageIdOfBody(encodedPage, encodedPage.length - TRAILER_SIZE);
  }

  static Id128 pageIdOfBody(byte[] bytes, int bodyLength) {
    MessageDigest sha256 = sha256();
    sha256.update(bytes, 0, bodyLength);
    byte[] digest = sha256.digest();
    return Id128.read(digest, 0);
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      // Every Java platform is required to provide SHA-256; reaching here means a broken JDK.
      throw new IllegalStateException("the JDK provides no SHA-256", e);
    }
  }
}
