package dev.objlog.format.segment;

import dev.objlog.UnsupportedVersionException;

/**
 * How a block's raw bytes are stored (FORMAT.md §1.4).
 *
 * <p>Thread-safety: stateless and safe to share.
 */
public enum Codec {
  /** Stored bytes are the raw bytes. Wire id 0; byte-stable with the Go writer. */
  NONE(0, "none"),
  /** Each block is one self-contained zstd frame without dictionary. Wire id 1; the default. */
  ZSTD(1, "zstd");

  private final int id;
  private final String wireName;

  Codec(int id, String wireName) {
    this.id = id;
    this.wireName = wireName;
  }

  /** The u16 value stored in the preamble and trailer. */
  public int id() {
    return id;
  }

  /** The lowercase name used in manifests and documentation. */
  public String wireName() {
    return wireName;
  }

  /**
   * Resolves a stored codec id.
   *
   * @throws UnsupportedVersionException for an id this build does not know
   */
  public static Codec fromId(int id) {
    return switch (id) {
      case 0 -> NONE;
      case 1 -> ZSTD;
      default -> throw new UnsupportedVersionException("unsupported segment codec id " + id);
    };
  }
}
