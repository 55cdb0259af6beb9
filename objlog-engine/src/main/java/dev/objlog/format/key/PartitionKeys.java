package dev.objlog.format.key;

import dev.objlog.CorruptObjectException;
import dev.objlog.InvalidArgumentException;
import java.util.HexFormat;

/**
 * Every object key of one stream partition under key layout v1 (§3.3), and the parsers that
 * read them back.
 *
 * <p>With {@code PP = <bucket>/streams/<stream_key>/p<partition:08d>} (the {@code
 * streams/<stream_key>} part is omitted for the empty stream id, which is for internal use
 * only), the catalog objects live under {@code <catalogPrefix>/PP/} and segments under {@code
 * <dataRoot>/segments/PP/}. LSNs, epochs and generations print as 20 decimal digits, ids as 32
 * lowercase hex digits, levels as 2 digits.
 *
 * <p>Builders throw {@link InvalidArgumentException} for values the layout cannot express (zero
 * epoch or generation, a zero or wrongly sized id, a level above 63, seqHi below seqLo).
 * Parsers throw {@link CorruptObjectException} for a key of this partition that does not fit the
 * grammar exactly (wrong widths, non-digits, upper-case hex, zero uuid, zero epoch or generation,
 * seqHi below seqLo, a level above 63), because such a key comes from the bucket, not from the
 * caller; a key outside this partition's prefixes is reported the same way.
 *
 * <p>Thread-safety: immutable.
 */
public final class PartitionKeys {
  public static final int MAX_PAGE_LEVEL = 63;

  private static final String HEAD = "head.plc";
  private static final String RETENTION = "maintenance/retention.json";
  private static final String GC_STATE = "maintenance/gc/state.json";

  private final String streamId;
  private final int partition;
  private final String partitionPath;
  private final String catalogDir;
  private final String segmentsDir;
  private final String stagingDir;

  private PartitionKeys(String catalogPrefix, String dataRoot, String streamId, int partition) {
    this.streamId = streamId;
    this.partition = partition;
    String bucket = StreamIds.bucket(streamId, partition);
    String streams = streamId.isEmpty() ? "" : "streams/" + StreamIds.streamKeyHex(streamId) + "/";
    this.partitionPath = bucket + "/" + streams + partitionDir(partition);
    this.catalogDir = catalogPrefix + "/" + partitionPath + "/";
    this.segmentsDir = dataRoot + "/segments/" + partitionPath + "/";
    this.stagingDir = dataRoot + "/staging/" + partitionPath + "/";
  }

  /**
   * Keys for one partition of a stream under the given prefixes.
   *
   * @param streamId a public stream id (canonicalized here), or "" for internal use
   * @param partition u32 held in an int
   * @throws InvalidArgumentException if a non-empty stream id is not valid
   */
  public static PartitionKeys of(KeyPrefixes prefixes, String streamId, int partition) {
    return of(prefixes.catalogPrefix(), prefixes.dataRoot(), streamId, partition);
  }

  /**
   * Keys for one partition with explicit prefixes. Prefixes are trimmed of '/'; an empty catalog
   * prefix means "catalog" and an empty data root "objlog", as when the catalog and sink are used
   * directly.
   *
   * @throws InvalidArgumentException if a non-empty stream id is not valid
   */
  public static PartitionKeys of(
      String catalogPrefix, String dataRoot, String streamId, int partition) {
    String catalog = StreamIds.normalize(catalogPrefix);
    String data = StreamIds.normalize(dataRoot);
    String id = StreamIds.normalize(streamId).isEmpty() ? "" : StreamIds.canonical(streamId);
    return new PartitionKeys(
        catalog.isEmpty() ? KeyPrefixes.DEFAULT_CATALOG_PREFIX : catalog,
        data.isEmpty() ? KeyPrefixes.DEFAULT_ROOT : data,
        id,
        partition);
  }

  /** {@code p} and the partition in decimal, zero-padded to at least 8 digits. */
  public static String partitionDir(int partition) {
    return "p" + pad(Integer.toUnsignedString(partition), 8);
  }

  public String streamId() {
    return streamId;
  }

  public int partition() {
    return partition;
  }

  /** {@code <bucket>/streams/<stream_key>/p<partition>}: the part shared by catalog and data. */
  public String partitionPath() {
    return partitionPath;
  }

  /** The partition's catalog folder, ending in '/'. */
  public String catalogDir() {
    return catalogDir;
  }

  public String head() {
    return catalogDir + HEAD;
  }

  public String retentionMailbox() {
    return catalogDir + RETENTION;
  }

  public String gcState() {
    return catalogDir + GC_STATE;
  }

  /** Every page of the partition lives under this folder (ending in '/'). */
  public String pagesDir() {
    return catalogDir + "pages/";
  }

  /** Pages of one level, ending in '/'; a listing is ordered by seq_hi. */
  public String pageLevelDir(int level) {
    checkLevel(level);
    return pagesDir() + "l" + pad(Integer.toString(level), 2) + "/";
  }

  /** {@code pages/l00/leaf-<seq_hi>-<seq_lo>-<generation>-<page_id>.plc}. */
  public String leafPage(long seqLo, long seqHi, long generation, byte[] pageId) {
    return pageLevelDir(0) + "leaf-" + pageName(seqLo, seqHi, generation, pageId);
  }

  /** {@code pages/lLL/index-lLL-<seq_hi>-<seq_lo>-<generation>-<page_id>.plc}, level 1..63. */
  public String indexPage(int level, long seqLo, long seqHi, long generation, byte[] pageId) {
    if (level < 1) {
      throw new InvalidArgumentException("index pages have levels 1.." + MAX_PAGE_LEVEL + ", got "
          + level);
    }
    String dir = pageLevelDir(level);
    return dir + "index-l" + pad(Integer.toString(level), 2) + "-"
        + pageName(seqLo, seqHi, generation, pageId);
  }

  /** {@link #leafPage} for level 0, {@link #indexPage} otherwise. */
  public String page(int level, long seqLo, long seqHi, long generation, byte[] pageId) {
    return level == 0
        ? leafPage(seqLo, seqHi, generation, pageId)
        : indexPage(level, seqLo, seqHi, generation, pageId);
  }

  private static String pageName(long seqLo, long seqHi, long generation, byte[] pageId) {
    if (Long.compareUnsigned(seqHi, seqLo) < 0) {
      throw new InvalidArgumentException("page seq_hi " + Long.toUnsignedString(seqHi)
          + " is below seq_lo " + Long.toUnsignedString(seqLo));
    }
    if (generation == 0) {
      throw new InvalidArgumentException("page generation must be positive");
    }
    return u64(seqHi) + "-" + u64(seqLo) + "-" + u64(generation) + "-" + id(pageId, "page id")
        + ".plc";
  }

  /** Segments of the partition live under this folder (ending in '/'). */
  public String segmentsDir() {
    return segmentsDir;
  }

  /** {@code <dataRoot>/segments/PP/seg-<base_lsn>-e<epoch>-<uuid>.plseg}. */
  public String segment(long baseLsn, long writerEpoch, byte[] segmentUuid) {
    return segmentsDir + segmentName(baseLsn, writerEpoch, segmentUuid) + ".plseg";
  }

  /** Staging objects of the partition live under this folder (ending in '/'). */
  public String stagingDir() {
    return stagingDir;
  }

  /** The staging folder of one segment upload, ending in '/'. */
  public String stagingDir(long baseLsn, long writerEpoch, byte[] segmentUuid) {
    return stagingDir + segmentName(baseLsn, writerEpoch, segmentUuid) + "/";
  }

  /** {@code <dataRoot>/staging/PP/seg-<base_lsn>-e<epoch>-<uuid>/<child>}. */
  public String staging(long baseLsn, long writerEpoch, byte[] segmentUuid, String child) {
    if (child.isEmpty()) {
      throw new InvalidArgumentException("a staging key needs a non-empty child name");
    }
    return stagingDir(baseLsn, writerEpoch, segmentUuid) + child;
  }

  private static String segmentName(long baseLsn, long writerEpoch, byte[] segmentUuid) {
    if (writerEpoch == 0) {
      throw new InvalidArgumentException("segment writer epoch must be positive");
    }
    String uuid = id(segmentUuid, "segment uuid");
    if (uuid.equals("0".repeat(32))) {
      throw new InvalidArgumentException("segment uuid must not be all zero");
    }
    return "seg-" + u64(baseLsn) + "-e" + u64(writerEpoch) + "-" + uuid;
  }

  // ---------------------------------------------------------------- parsers

  /**
   * Recognises any key of this partition.
   *
   * @throws CorruptObjectException if the key is not one of this partition's keys
   */
  public ParsedKey parse(String key) {
    if (key.startsWith(catalogDir)) {
      String rest = key.substring(catalogDir.length());
      switch (rest) {
        case HEAD:
          return new ParsedKey.Head(key);
        case RETENTION:
          return new ParsedKey.RetentionMailbox(key);
        case GC_STATE:
          return new ParsedKey.GcState(key);
        default:
          return parsePage(key);
      }
    }
    if (key.startsWith(segmentsDir)) {
      return parseSegment(key);
    }
    if (key.startsWith(stagingDir)) {
      return parseStaging(key);
    }
    throw corrupt(key, "is not under this partition's catalog, segment or staging folders");
  }

  /**
   * Parses a page key of this partition.
   *
   * @throws CorruptObjectException if the key does not fit the page grammar exactly
   */
  public ParsedKey.Page parsePage(String key) {
    String pages = pagesDir();
    if (!key.startsWith(pages)) {
      throw corrupt(key, "is outside the page folder " + pages);
    }
    String rest = key.substring(pages.length());
    int slash = rest.indexOf('/');
    if (slash != 3 || rest.charAt(0) != 'l' || rest.indexOf('/', slash + 1) >= 0) {
      throw corrupt(key, "is not pages/lNN/<name>");
    }
    String levelText = rest.substring(1, 3);
    if (!digits(levelText)) {
      throw corrupt(key, "has a non-decimal level folder");
    }
    int level = Integer.parseInt(levelText);
    if (level > MAX_PAGE_LEVEL) {
      throw corrupt(key, "has level " + level + " above " + MAX_PAGE_LEVEL);
    }
    String name = rest.substring(4);
    String prefix = level == 0 ? "leaf-" : "index-l" + levelText + "-";
    if (!name.startsWith(prefix) || !name.endsWith(".plc")) {
      throw corrupt(key, "is not named " + prefix + "...plc");
    }
    String[] fields = name.substring(prefix.length(), name.length() - 4).split("-", -1);
    if (fields.length != 4
        || fields[0].length() != 20
        || fields[1].length() != 20
        || fields[2].length() != 20
        || fields[3].length() != 32) {
      throw corrupt(key, "does not have 20-digit seq_hi, seq_lo, generation and a 32-hex page id");
    }
    long seqHi = parseU64(key, fields[0], "seq_hi");
    long seqLo = parseU64(key, fields[1], "seq_lo");
    if (Long.compareUnsigned(seqHi, seqLo) < 0) {
      throw corrupt(key, "has seq_hi below seq_lo");
    }
    long generation = parseU64(key, fields[2], "generation");
    if (generation == 0) {
      throw corrupt(key, "has generation 0");
    }
    if (!lowerHex(fields[3])) {
      throw corrupt(key, "has a page id that is not lowercase hex");
    }
    return new ParsedKey.Page(key, level, seqLo, seqHi, generation, fields[3]);
  }

  /**
   * Parses a segment key of this partition.
   *
   * @throws CorruptObjectException if the key does not fit the segment grammar exactly
   */
  public ParsedKey.Segment parseSegment(String key) {
    if (!key.startsWith(segmentsDir) || !key.endsWith(".plseg")) {
      throw corrupt(key, "is not " + segmentsDir + "seg-...plseg");
    }
    String name = key.substring(segmentsDir.length(), key.length() - ".plseg".length());
    long[] numbers = new long[2];
    String uuid = parseSegmentName(key, name, numbers);
    return new ParsedKey.Segment(key, numbers[0], numbers[1], uuid);
  }

  /**
   * Parses a staging key of this partition.
   *
   * @throws CorruptObjectException if the key does not fit the staging grammar exactly
   */
  public ParsedKey.Staging parseStaging(String key) {
    if (!key.startsWith(stagingDir)) {
      throw corrupt(key, "is outside the staging folder " + stagingDir);
    }
    String rest = key.substring(stagingDir.length());
    int slash = rest.indexOf('/');
    if (slash < 0 || slash == rest.length() - 1) {
      throw corrupt(key, "is not seg-.../<child>");
    }
    long[] numbers = new long[2];
    String uuid = parseSegmentName(key, rest.substring(0, slash), numbers);
    return new ParsedKey.Staging(key, numbers[0], numbers[1], uuid, rest.substring(slash + 1));
  }

  /** Parses {@code seg-<20>-e<20>-<32 hex>} into base and epoch; returns the uuid. */
  private static String parseSegmentName(String key, String name, long[] numbers) {
    // "seg-" + 20 + "-e" + 20 + "-" + 32
    if (name.length() != 4 + 20 + 2 + 20 + 1 + 32
        || !name.startsWith("seg-")
        || !name.startsWith("-e", 24)
        || name.charAt(46) != '-') {
      throw corrupt(key, "is not seg-<base_lsn:20>-e<epoch:20>-<uuid:32 hex>");
    }
    numbers[0] = parseU64(key, name.substring(4, 24), "base_lsn");
    numbers[1] = parseU64(key, name.substring(26, 46), "writer epoch");
    if (numbers[1] == 0) {
      throw corrupt(key, "has writer epoch 0");
    }
    String uuid = name.substring(47);
    if (!lowerHex(uuid)) {
      throw corrupt(key, "has a segment uuid that is not lowercase hex");
    }
    if (uuid.equals("0".repeat(32))) {
      throw corrupt(key, "has an all-zero segment uuid");
    }
    return uuid;
  }

  // ---------------------------------------------------------------- helpers

  private static void checkLevel(int level) {
    if (level < 0 || level > MAX_PAGE_LEVEL) {
      throw new InvalidArgumentException("page levels are 0.." + MAX_PAGE_LEVEL + ", got " + level);
    }
  }

  private static String id(byte[] id, String what) {
    if (id.length != 16) {
      throw new InvalidArgumentException(what + " must be 16 bytes, got " + id.length);
    }
    return HexFormat.of().formatHex(id);
  }

  private static String u64(long value) {
    return pad(Long.toUnsignedString(value), 20);
  }

  private static String pad(String digits, int width) {
    return digits.length() >= width ? digits : "0".repeat(width - digits.length()) + digits;
  }

  private static long parseU64(String key, String text, String field) {
    if (!digits(text)) {
      throw corrupt(key, "has a non-decimal " + field);
    }
    try {
      return Long.parseUnsignedLong(text);
    } catch (NumberFormatException e) {
      throw corrupt(key, "has a " + field + " above 2^64-1");
    }
  }

  private static boolean digits(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return !text.isEmpty();
  }

  private static boolean lowerHex(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }

  private static CorruptObjectException corrupt(String key, String problem) {
    return new CorruptObjectException("object key \"" + key + "\" " + problem);
  }

  @Override
  public String toString() {
    return "PartitionKeys[" + catalogDir + ", " + segmentsDir + "]";
  }
}
