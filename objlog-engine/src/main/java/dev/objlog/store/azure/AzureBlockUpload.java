package dev.objlog.store.azure;

import dev.objlog.store.CreateResult;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.PermanentStoreException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A streaming create-only upload as staged blocks: each full buffer is staged (Put Block) as it
 * fills, and {@link #complete()} commits the block list with {@code If-None-Match: *}. A body that
 * never fills one block is sent as a single conditional Put Blob instead.
 *
 * <p>Staged blocks are invisible, and there is nothing to cancel on abort: Azure discards
 * uncommitted blocks when any block list of that blob is committed, and otherwise after seven
 * days. Block ids carry a random session id, so concurrent uploads of one key never mix blocks.
 *
 * <p>Thread-safety: not thread-safe; one producer writes, then completes or aborts.
 */
final class AzureBlockUpload implements ObjectUpload {
  private enum State {
    OPEN,
    FAILED,
    COMPLETED,
    ABORTED
  }

  private final AzureBlobObjectStore store;
  private final String key;
  private final int blockSize;
  private final String session = newSession();
  private final List<String> blockIds = new ArrayList<>();
  private byte[] buffer;
  private int buffered;
  private long written;
  private State state = State.OPEN;
  private @Nullable CreateResult result;

  AzureBlockUpload(AzureBlobObjectStore store, String key, int blockSize) {
    this.store = store;
    this.key = key;
    this.blockSize = blockSize;
    // Grows towards one block as bytes arrive, so small uploads never reserve a whole block.
    this.buffer = new byte[Math.min(blockSize, 64 * 1024)];
  }

  @Override
  public String key() {
    return key;
  }

  @Override
  public void write(byte[] bytes, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, bytes.length);
    requireOpen();
    int pos = offset;
    int end = offset + length;
    while (pos < end) {
      if (buffered == blockSize) {
        stageBuffered();
      } else if (buffered == buffer.length) {
        buffer = Arrays.copyOf(buffer, (int) Math.min(blockSize, 2L * buffer.length));
      }
      int n = Math.min(end - pos, buffer.length - buffered);
      System.arraycopy(bytes, pos, buffer, buffered, n);
      buffered += n;
      written += n;
      pos += n;
    }
  }

  @Override
  public long bytesWritten() {
    return written;
  }

  @Override
  public CreateResult complete() {
    if (state == State.COMPLETED && result != null) {
      return result;
    }
    requireOpen();
    CreateResult outcome;
    if (blockIds.isEmpty()) {
      outcome = store.putIfAbsent(key, Arrays.copyOf(buffer, buffered));
    } else {
      if (buffered > 0) {
        stageBuffered();
      }
      outcome = store.commitBlocks(key, List.copyOf(blockIds));
    }
    // A failed completion leaves the upload open (a conditional commit is safe to try again);
    // an answer of either kind ends it.
    state = State.COMPLETED;
    result = outcome;
    buffer = new byte[0];
    return outcome;
  }

  @Override
  public void abort() {
    if (state == State.OPEN || state == State.FAILED) {
      state = State.ABORTED;
      buffer = new byte[0];
      buffered = 0;
    }
  }

  @Override
  public void close() {
    abort();
  }

  /**
   * Stages the full buffer. Deferred until more bytes arrive (or completion), so that a body of
   * exactly one block still goes up as one Put Blob.
   */
  private void stageBuffered() {
    if (blockIds.size() >= AzureBlobObjectStore.MAX_BLOCKS) {
      state = State.FAILED;
      throw new PermanentStoreException(
          "upload of " + key + " exceeds " + AzureBlobObjectStore.MAX_BLOCKS + " blocks of " + blockSize
              + " bytes; configure a larger block size");
    }
    String id = blockId(session, blockIds.size());
    byte[] block = buffered == buffer.length ? buffer : Arrays.copyOf(buffer, buffered);
    try {
      store.stageBlock(key, id, block);
    } catch (RuntimeException e) {
      // The caller cannot tell how much of its last write went in; the upload must start over.
      state = State.FAILED;
      throw e;
    }
    blockIds.add(id);
    // Never reuse the staged array: a try that timed out may still be sending it in the
    // background, and overwriting it could stage other bytes under this block id.
    buffer = new byte[blockSize];
    buffered = 0;
  }

  static String newSession() {
    return UUID.randomUUID().toString().replace("-", "");
  }

  /**
   * Equal-length ids, as Azure requires of all blocks of one blob, uncommitted ones of other
   * uploads included; the session keeps concurrent uploads of one key apart.
   */
  static String blockId(String session, int index) {
    String raw = String.format(java.util.Locale.ROOT, "objlog-%s-%06d", session, index);
    return Base64.getEncoder().encodeToString(raw.getBytes(StandardCharsets.US_ASCII));
  }

  private void requireOpen() {
    if (state != State.OPEN) {
      throw new IllegalStateException("upload of " + key + " is " + state.name().toLowerCase(java.util.Locale.ROOT)
          + (state == State.FAILED ? "; abort it and start a new one" : ""));
    }
  }
}
