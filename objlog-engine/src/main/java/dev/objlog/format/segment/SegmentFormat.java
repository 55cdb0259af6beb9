package dev.objlog.format.segment;

/**
 * The constants of segformat v2 (FORMAT.md §1.2–§1.3). Sizes are in bytes.
 *
 * <p>Thread-safety: constants only.
 */
public final class SegmentFormat {
  /** The only segment format version this build reads and writes. */
  public static final int VERSION = 2;
  /** Record format id 1 ("v1"), the only one defined. */
  public static final int RECORD_FORMAT_V1 = 1;

  public static final int FILE_PREAMBLE_SIZE = 64;
  public static final int BLOCK_PREAMBLE_SIZE = 64;
  public static final int INDEX_PREAMBLE_SIZE = 64;
  public static final int INDEX_ENTRY_SIZE = 64;
  public static final int TRAILER_SIZE = 192;
  public static final int RECORD_ENVELOPE_SIZE = 16;

  public static final int MAX_RAW_BLOCK_SIZE = 16 * 1024 * 1024;
  public static final int MAX_STORED_BLOCK_SIZE = 20 * 1024 * 1024;
  public static final int MAX_RECORD_VALUE_LEN = 4 * 1024 * 1024;
  public static final int MAX_RECORD_HEADERS = 64;
  public static final int MAX_RECORD_HEADER_BYTES = 256 * 1024;
  public static final int MAX_HEADER_KEY_LEN = 1024;
  public static final int MAX_HEADER_VALUE_LEN = 65_535;
  /** floor((2^32 − 1 − 64) / 64): the largest block count whose index length fits a u32. */
  public static final long MAX_BLOCK_COUNT = 67_108_862L;
  /** Records per segment: the trailer's u32 record_count. */
  public static final long MAX_RECORD_COUNT = 0xFFFF_FFFFL;

  /** 2^64 − 1 as an unsigned long; never assigned to a record. */
  public static final long RESERVED_LSN = -1L;
  /** 2^64 − 2 as an unsigned long: the largest LSN a record may carry. */
  public static final long MAX_RECORD_LSN = -2L;

  /** The Go writer's default target for raw block bytes. */
  public static final int DEFAULT_TARGET_BLOCK_SIZE = 1024 * 1024;

  static final int MAGIC_FILE = 0x504C5347; // "PLSG"
  static final int MAGIC_BLOCK = 0x504C424B; // "PLBK"
  static final int MAGIC_INDEX = 0x504C4958; // "PLIX"
  static final int MAGIC_TRAILER = 0x504C4654; // "PLFT"

  private SegmentFormat() {}
}
