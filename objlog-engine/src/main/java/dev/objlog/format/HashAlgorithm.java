package dev.objlog.format;

import dev.objlog.UnsupportedVersionException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import net.openhft.hashing.LongHashFunction;

/**
 * The checksum algorithms of segformat v2 and catformat v1. One algorithm covers every hash field
 * of an object; the value is always carried in a u64 field (CRC-32C zero-extended).
 *
 * <p>Thread-safety: stateless and safe to share.
 */
public enum HashAlgorithm {
  /** CRC-32C (Castagnoli), zero-extended into 64 bits. Wire id 0. */
  CRC32C(0, "crc32c"),
  /** XXH64 with seed 0. Wire id 1; the Go writer's default. */
  XXH64(1, "xxh64");

  private static final LongHashFunction XXH64_SEED0 = LongHashFunction.xx(0);

  private final int id;
  private final String wireName;

  HashAlgorithm(int id, String wireName) {
    this.id = id;
    this.wireName = wireName;
  }

  /** The u16 value stored in headers and trailers. */
  public int id() {
    return id;
  }

  /** The lowercase name used in manifests and documentation. */
  public String wireName() {
    return wireName;
  }

  /**
   * Resolves a stored algorithm id.
   *
   * @throws UnsupportedVersionException for an id this build does not know
   */
  public static HashAlgorithm fromId(int id) {
    return switch (id) {
      case 0 -> CRC32C;
      case 1 -> XXH64;
      default -> throw new UnsupportedVersionException("unsupported hash algorithm id " + id);
    };
  }

  /** Hashes {@code len} bytes of {@code bytes} starting at {@code offset}. */
  public long hash(byte[] bytes, int offset, int len) {
    if (this == XXH64) {
      return XXH64_SEED0.hashBytes(bytes, offset, len);
    }
    CRC32C crc = new CRC32C();
    crc.update(bytes, offset, len);
    return crc.getValue();
  }

  /** Hashes the remaining bytes of {@code buffer} without moving its position. */
  public long hash(ByteBuffer buffer) {
    if (this == XXH64) {
      return XXH64_SEED0.hashBytes(buffer);
    }
    CRC32C crc = new CRC32C();
    crc.update(buffer.duplicate());
    return crc.getValue();
  }

  /** Starts an incremental hash, for encoders that stream bytes out as they go. */
  public Incremental incremental() {
    return this == XXH64 ? new Xxh64Incremental() : new Crc32cIncremental();
  }

  /**
   * A hash computed over bytes fed in pieces. Not thread-safe: one producer at a time.
   */
  public interface Incremental {
    void update(byte[] bytes, int offset, int len);

    /** The hash of everything fed so far; feeding may continue afterwards. */
    long value();
  }

  private static final class Crc32cIncremental implements Incremental {
    private final CRC32C crc = new CRC32C();

    @Override
    public void update(byte[] bytes, int offset, int len) {
      crc.update(bytes, offset, len);
    }

    @Override
    public long value() {
      return crc.getValue();
    }
  }

  /** Streaming XXH64 (seed 0), since the hashing library only hashes whole inputs. */
  private static final class Xxh64Incremental implements Incremental {
    private static final long P1 = 0x9E3779B185EBCA87L;
    private static final long P2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P3 = 0x165667B19E3779F9L;
    private static final long P4 = 0x85EBCA77C2B2AE63L;
    private static final long P5 = 0x27D4EB2F165667C5L;

    private long v1 = P1 + P2;
    private long v2 = P2;
    private long v3 = 0;
    private long v4 = -P1;
    private final byte[] pending = new byte[32];
    private int pendingLen;
    private long total;

    @Override
    public void update(byte[] bytes, int offset, int len) {
      total += len;
      int pos = offset;
      int end = offset + len;
      if (pendingLen > 0) {
        int take = Math.min(32 - pendingLen, len);
        System.arraycopy(bytes, pos, pending, pendingLen, take);
        pendingLen += take;
        pos += take;
        if (pendingLen < 32) {
          return;
        }
        stripe(pending, 0);
        pendingLen = 0;
      }
      while (end - pos >= 32) {
        stripe(bytes, pos);
        pos += 32;
      }
      pendingLen = end - pos;
      System.arraycopy(bytes, pos, pending, 0, pendingLen);
    }

    private void stripe(byte[] b, int at) {
      v1 = round(v1, le64(b, at));
      v2 = round(v2, le64(b, at + 8));
      v3 = round(v3, le64(b, at + 16));
      v4 = round(v4, le64(b, at + 24));
    }

    @Override
    public long value() {
      long h;
      if (total >= 32) {
        h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12)
            + Long.rotateLeft(v4, 18);
        h = merge(h, v1);
        h = merge(h, v2);
        h = merge(h, v3);
        h = merge(h, v4);
      } else {
        h = P5;
      }
      h += total;
      int i = 0;
      while (i + 8 <= pendingLen) {
        h ^= round(0, le64(pending, i));
        h = Long.rotateLeft(h, 27) * P1 + P4;
        i += 8;
      }
      if (i + 4 <= pendingLen) {
        h ^= (le32(pending, i) & 0xFFFFFFFFL) * P1;
        h = Long.rotateLeft(h, 23) * P2 + P3;
        i += 4;
      }
      while (i < pendingLen) {
        h ^= (pending[i] & 0xFFL) * P5;
        h = Long.rotateLeft(h, 11) * P1;
        i++;
      }
      h ^= h >>> 33;
      h *= P2;
      h ^= h >>> 29;
      h *= P3;
      h ^= h >>> 32;
      return h;
    }

    private static long round(long acc, long input) {
      acc += input * P2;
      acc = Long.rotateLeft(acc, 31);
      return acc * P1;
    }

    private static long merge(long acc, long val) {
      acc ^= round(0, val);
      return acc * P1 + P4;
    }

    private static long le64(byte[] b, int i) {
      return (b[i] & 0xFFL)
          | (b[i + 1] & 0xFFL) << 8
          | (b[i + 2] & 0xFFL) << 16
          | (b[i + 3] & 0xFFL) << 24
          | (b[i + 4] & 0xFFL) << 32
          | (b[i + 5] & 0xFFL) << 40
          | (b[i + 6] & 0xFFL) << 48
          | (b[i + 7] & 0xFFL) << 56;
    }

    private static int le32(byte[] b, int i) {
      return (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF) << 16 | (b[i + 3] & 0xFF) << 24;
    }
  }
}
