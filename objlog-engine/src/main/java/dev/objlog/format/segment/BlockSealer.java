package dev.objlog.format.segment;

import static dev.objlog.format.segment.SegmentFormat.BLOCK_PREAMBLE_SIZE;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdException;
import dev.objlog.InvalidArgumentException;
import dev.objlog.ObjlogException;
import dev.objlog.format.HashAlgorithm;
import java.util.Arrays;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Seals raw blocks (FORMAT.md §1.10): compresses (zstd) or keeps (none) the raw content, hashes the
 * stored bytes and writes the block preamble in front of them. Sealing a block depends on nothing
 * but the block, so blocks of one segment may be sealed on several threads, each with its own
 * sealer, and placed in order afterwards by a {@link SegmentAssembler}. zstd output is a pure
 * function of input and level, so a block seals to the same bytes on any sealer.
 *
 * <p>{@link #seal} consumes the raw block: with codec none the sealed block <em>is</em> its buffer
 * (the preamble goes into the reserved first 64 bytes); with zstd the sealed block owns an array of
 * at most its size plus an eighth, and the raw buffer is free again when {@code seal} returns.
 *
 * <p>Holds a native zstd context (codec zstd): {@link #close} it. A zstd failure is an {@link
 * ObjlogException}.
 *
 * <p>Thread-safety: not thread-safe (one zstd context and one scratch buffer); use one sealer per
 * thread or hand sealers out from a pool.
 */
public final class BlockSealer implements AutoCloseable {
  private final Codec codec;
  private final HashAlgorithm hash;
  private final int level;
  private @Nullable ZstdCompressCtx zstd;
  /** zstd output with the 64-byte preamble reserve; grown to the bound of the largest block. */
  private byte[] scratch = new byte[0];
  private boolean closed;

  /**
   * @throws InvalidArgumentException if zstd rejects the level
   */
  public BlockSealer(Codec codec, int zstdLevel, HashAlgorithm hash) {
    this.codec = Objects.requireNonNull(codec, "codec");
    this.hash = Objects.requireNonNull(hash, "hash");
    this.level = zstdLevel;
    if (codec == Codec.ZSTD) {
      try {
        zstd = new ZstdCompressCtx().setLevel(zstdLevel).setChecksum(false).setContentSize(true);
      } catch (ZstdException e) {
        throw new InvalidArgumentException("zstd rejected level " + zstdLevel + ": " + e.getMessage());
      }
    }
  }

  /** A sealer for the codec, level and hash of {@code options}. */
  public static BlockSealer of(SegmentEncoderOptions options) {
    return new BlockSealer(options.codec(), options.zstdLevel(), options.hashAlgorithm());
  }

  public Codec codec() {
    return codec;
  }

  public int zstdLevel() {
    return level;
  }

  public HashAlgorithm hashAlgorithm() {
    return hash;
  }

  /**
   * Seals {@code raw} into a block that owns its bytes (see the class comment for what happens to
   * the raw buffer).
   */
  public SealedBlock seal(RawBlock raw) {
    return seal(raw, true);
  }

  /**
   * Like {@link #seal}, but a zstd block's bytes stay in this sealer's scratch buffer, valid until
   * its next call: for a caller that writes the block out at once.
   */
  SealedBlock sealReusing(RawBlock raw) {
    return seal(raw, false);
  }

  private SealedBlock seal(RawBlock raw, boolean own) {
    if (closed) {
      throw new InvalidArgumentException("block sealer is closed");
    }
    int rawLen = raw.rawSize();
    byte[] out;
    int stored;
    if (codec == Codec.NONE) {
      out = raw.buffer();
      stored = rawLen;
    } else {
      int bound = (int) zstdBound(rawLen);
      // An owning seal compresses into an array of its own rather than a kept scratch buffer: a
      // sealer then holds no block-sized heap between seals (a writer may keep several sealers,
      // and a process many writers). The array is kept when it is close to the stored size
      // (incompressible data: one allocation, no copy), else copied to it.
      byte[] target;
      if (own) {
        target = new byte[BLOCK_PREAMBLE_SIZE + bound];
      } else {
        if (scratch.length < BLOCK_PREAMBLE_SIZE + bound) {
          scratch = new byte[BLOCK_PREAMBLE_SIZE + bound];
        }
        target = scratch;
      }
      ZstdCompressCtx ctx = Objects.requireNonNull(zstd, "zstd context");
      try {
        stored = ctx.compressByteArray(target, BLOCK_PREAMBLE_SIZE, target.length - BLOCK_PREAMBLE_SIZE,
            raw.buffer(), BLOCK_PREAMBLE_SIZE, rawLen);
      } catch (ZstdException e) {
        throw new ObjlogException("zstd compression failed: " + e.getMessage(), e);
      }
      int length = BLOCK_PREAMBLE_SIZE + stored;
      out = own && target.length - length > (length >>> 3) + 64 ? Arrays.copyOf(target, length) : target;
    }
    long blockHash = hash.hash(out, BLOCK_PREAMBLE_SIZE, stored);
    SealedBlock sealed = new SealedBlock(codec, out, stored, raw, blockHash);
    Layout.writeBlockPreamble(out, 0, sealed.at(0));
    return sealed;
  }

  /** ZSTD_COMPRESSBOUND. */
  static long zstdBound(int n) {
    return n + (n >>> 8) + (n < 128 * 1024 ? (128 * 1024 - n) >>> 11 : 0);
  }

  /** Releases the zstd context. Idempotent. */
  @Override
  public void close() {
    closed = true;
    if (zstd != null) {
      zstd.close();
      zstd = null;
    }
  }
}
