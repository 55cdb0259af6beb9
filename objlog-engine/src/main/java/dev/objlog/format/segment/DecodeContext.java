package dev.objlog.format.segment;

import static dev.objlog.format.segment.SegmentFormat.BLOCK_PREAMBLE_SIZE;
import static dev.objlog.format.segment.SegmentFormat.MAX_STORED_BLOCK_SIZE;

import com.github.luben.zstd.ZstdDecompressCtx;
import dev.objlog.InvalidArgumentException;
import dev.objlog.ObjlogException;
import org.jspecify.annotations.Nullable;

/**
 * Reusable decoding state for one thread at a time: a native zstd decompression context and the
 * buffers block reads and decompression go through, kept between blocks (and between the {@link
 * RecordCursor}s that share it) so that neither the context nor the buffers are remade per block.
 *
 * <p>A {@link SegmentReader#cursor} owns one and closes it with the cursor. {@link
 * SegmentReader#blockCursor} borrows the caller's: a reader that decodes many blocks on a few
 * threads keeps one per thread (or a small pool) and closes them when done.
 *
 * <p>Memory: each buffer grows to the largest block met, and never past the format's caps (fetch
 * 64 B + 20 MiB, decompressed 16 MiB); nothing is allocated from unvalidated sizes.
 *
 * <p>Resources: the zstd context is native memory that only {@link #close} frees (idempotent);
 * a closed context refuses further use.
 *
 * <p>Thread-safety: not thread-safe; one thread at a time, and not while another cursor using it
 * is still moving.
 */
public final class DecodeContext implements AutoCloseable {
  private static final byte[] EMPTY = new byte[0];

  /** Whether to keep one native context for all blocks (else zstd makes one per block). */
  private final boolean keepNative;
  private @Nullable ZstdDecompressCtx zstd;
  /** Range-read buffer: block preamble and stored bytes; at most 64 B + 20 MiB. */
  private byte[] fetched = EMPTY;
  /** Decompression buffer; at most 16 MiB. */
  private byte[] scratch = EMPTY;
  private boolean closed;

  /** A context that keeps one native zstd context until {@link #close}. */
  public DecodeContext() {
    this(true);
  }

  /**
   * A context that keeps no native zstd context: zstd makes and frees one per block. For callers
   * that bound how many native contexts they keep and have all of theirs in use.
   */
  public static DecodeContext withoutNativeContext() {
    return new DecodeContext(false);
  }

  /** Whether this context keeps a native zstd context between blocks. */
  public boolean keepsNativeContext() {
    return keepNative;
  }

  /**
   * With {@code keepNative} false no native context is held (zstd makes and frees one per block),
   * for cursors nobody can close, such as the one behind {@link SegmentReader#records()}.
   */
  DecodeContext(boolean keepNative) {
    this.keepNative = keepNative;
  }

  /** The reused fetch buffer, at least {@code length} (validated, ≤ 64 B + 20 MiB) bytes long. */
  byte[] fetchBuffer(int length) {
    requireOpen();
    if (fetched.length < length) {
      // Stored sizes of neighbouring blocks differ by a few bytes up or down: an eighth of headroom
      // spares regrowing (and zeroing) the buffer for most of them. Still capped by the format.
      fetched = new byte[(int) Math.min(length + (length >> 3),
          (long) BLOCK_PREAMBLE_SIZE + MAX_STORED_BLOCK_SIZE)];
    }
    return fetched;
  }

  /** The reused decompression buffer, at least {@code rawSize} (validated, ≤ 16 MiB) bytes long. */
  byte[] scratch(int rawSize) {
    requireOpen();
    if (scratch.length < rawSize) {
      scratch = new byte[rawSize];
    }
    return scratch;
  }

  /** The native context to reuse, created on first use; null when this context keeps none. */
  @Nullable ZstdDecompressCtx zstd() {
    requireOpen();
    if (!keepNative) {
      return null;
    }
    ZstdDecompressCtx ctx = zstd;
    if (ctx == null) {
      try {
        ctx = new ZstdDecompressCtx();
      } catch (RuntimeException e) {
        throw new ObjlogException("zstd: cannot create a decompression context: " + e.getMessage(), e);
      }
      zstd = ctx;
    }
    return ctx;
  }

  private void requireOpen() {
    if (closed) {
      throw new InvalidArgumentException("decode context is closed");
    }
  }

  /** Frees the native context and drops the buffers. Idempotent. */
  @Override
  public void close() {
    closed = true;
    fetched = EMPTY;
    scratch = EMPTY;
    ZstdDecompressCtx ctx = zstd;
    if (ctx != null) {
      zstd = null;
      ctx.close();
    }
  }
}
