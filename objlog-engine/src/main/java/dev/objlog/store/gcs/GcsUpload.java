package dev.objlog.store.gcs;

import dev.objlog.store.RequestRateLimiter;
import com.google.api.core.ApiFuture;
import com.google.cloud.WriteChannel;
import com.google.cloud.storage.BlobInfo;
import dev.objlog.store.CreateResult;
import dev.objlog.store.IndeterminateStoreException;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.StoreException;
import dev.objlog.store.TransientStoreException;
import dev.objlog.store.VersionToken;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * A create-only streaming upload. Bytes collect in memory until they exceed one chunk; an upload
 * that never does is sent as a single create-only request at {@link #complete()}. A larger one
 * opens a resumable session with {@code ifGenerationMatch=0} and streams chunk by chunk; GCS makes
 * the object visible only when the final chunk is accepted, and checks the condition again then.
 *
 * <p>Aborting drops the session without finalizing it: the client offers no way to cancel a
 * resumable session, so its uploaded chunks stay on GCS's side, invisible (no object, nothing
 * listed), until the session expires a week after it started. Uploads that never left the buffer
 * leave nothing.
 *
 * <p>Thread-safety: not thread-safe; one producer writes, then completes or aborts.
 */
final class GcsUpload implements ObjectUpload {
  private enum State {
    OPEN,
    COMPLETED,
    ABORTED,
    FAILED
  }

  private static final int INITIAL_BUFFER = 64 * 1024;

  private final GcsObjectStore store;
  private final String key;
  private final int chunkSize;
  private byte[] pending;
  private int pendingLength;
  private @Nullable WriteChannel channel;
  private long written;
  private long sentSinceLastPermit;
  private boolean keyTaken;
  private State state = State.OPEN;
  private @Nullable CreateResult result;
  private @Nullable StoreException failure;

  GcsUpload(GcsObjectStore store, String key) {
    this.store = store;
    this.key = key;
    this.chunkSize = store.uploadChunkSize();
    this.pending = new byte[Math.min(INITIAL_BUFFER, chunkSize)];
  }

  @Override
  public String key() {
    return key;
  }

  @Override
  public void write(byte[] bytes, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, bytes.length);
    requireOpen();
    written += length;
    if (keyTaken || length == 0) {
      // The session was refused because the key exists: the answer is already AlreadyExists.
      return;
    }
    if (channel == null) {
      if (pendingLength + length <= chunkSize) {
        buffer(bytes, offset, length);
        return;
      }
      open();
      if (keyTaken) {
        return;
      }
      byte[] staged = pending;
      int stagedLength = pendingLength;
      pending = new byte[0];
      pendingLength = 0;
      send(staged, 0, stagedLength);
    }
    send(bytes, offset, length);
  }

  private void buffer(byte[] bytes, int offset, int length) {
    int needed = pendingLength + length;
    if (needed > pending.length) {
      pending = Arrays.copyOf(pending, Math.min(chunkSize, Math.max(needed, pending.length * 2)));
    }
    System.arraycopy(bytes, offset, pending, pendingLength, length);
    pendingLength = needed;
  }

  private void open() {
    BlobInfo info = store.blobInfo(key);
    try {
      store.limiter().acquire();
      // Storage.writer, not blobWriteSession: in 2.63.0 only the writer's chunk requests are
      // retried and resumed (query the persisted size, resend the rest) by the client.
      WriteChannel writer =
          store.uploadStorage().writer(info, store.writeOptions());
      writer.setChunkSize(chunkSize);
      channel = writer;
    } catch (RuntimeException e) {
      failed(e, false);
    }
  }

  private void send(byte[] bytes, int offset, int length) {
    WriteChannel open = Objects.requireNonNull(channel);
    ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
    try {
      while (buffer.hasRemaining()) {
        open.write(buffer);
      }
    } catch (IOException | RuntimeException e) {
      failed(e, false);
      return;
    }
    // The channel sends one request per full chunk; each takes a permit of the rate limit.
    sentSinceLastPermit += length;
    while (sentSinceLastPermit >= chunkSize) {
      sentSinceLastPermit -= chunkSize;
      store.limiter().acquire();
    }
  }

  @Override
  public long bytesWritten() {
    return written;
  }

  @Override
  public CreateResult complete() {
    switch (state) {
      case COMPLETED:
        return Objects.requireNonNull(result);
      case ABORTED:
        throw new IllegalStateException("the upload of " + store.where(key) + " was aborted");
      case FAILED:
        throw Objects.requireNonNull(failure);
      default:
        break;
    }
    if (keyTaken) {
      return finish(new CreateResult.AlreadyExists());
    }
    if (channel == null) {
      try {
        CreateResult created = store.putIfAbsent(key, pending, pendingLength);
        pending = new byte[0];
        pendingLength = 0;
        return finish(created);
      } catch (StoreException e) {
        state = State.FAILED;
        failure = e;
        throw e;
      }
    }
    WriteChannel finishing = channel;
    try {
      finishing.close();
    } catch (IOException | RuntimeException e) {
      failed(e, true);
      return finish(new CreateResult.AlreadyExists());
    }
    return finish(new CreateResult.Created(createdToken(finishing)));
  }

  /**
   * The generation of the object the finalized channel created. The client's writer knows it (the
   * final response carries the object) but exposes it only through {@code getObject()} of a
   * package-private interface, hence the reflective call; if a future client version removes it,
   * the token is read back with one metadata request instead (which could, in the unlikely case
   * that another writer replaced the fresh object within that moment, report the newer version).
   */
  @SuppressWarnings("unchecked")
  private VersionToken createdToken(WriteChannel finished) {
    try {
      Method getObject = finished.getClass().getMethod("getObject");
      getObject.setAccessible(true);
      BlobInfo info = ((ApiFuture<BlobInfo>) getObject.invoke(finished)).get();
      return GcsObjectStore.token(info.getGeneration());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw fail(new IndeterminateStoreException(
          "interrupted while finishing the upload of " + store.where(key), e));
    } catch (ReflectiveOperationException | ExecutionException | RuntimeException unavailable) {
      Optional<ObjectMetadata> head = store.head(key);
      if (head.isEmpty()) {
        throw fail(new IndeterminateStoreException(
            "the upload of " + store.where(key) + " was finalized but the object is gone already", unavailable));
      }
      return head.get().token();
    }
  }

  private CreateResult finish(CreateResult outcome) {
    state = State.COMPLETED;
    result = outcome;
    channel = null;
    return outcome;
  }

  /**
   * Handles a failed session request. A 412 means the key exists: remembered, and reported as
   * {@link CreateResult.AlreadyExists} by {@link #complete()}. Anything else ends the upload (the
   * client has already retried chunk requests): before finalizing nothing can have become
   * visible; during finalizing the object may have been created.
   */
  private void failed(Throwable e, boolean finalizing) {
    channel = null;
    if (GcsErrors.status(e) == GcsErrors.PRECONDITION_FAILED) {
      keyTaken = true;
      return;
    }
    String what = (finalizing ? "finishing" : "streaming") + " the upload of " + store.where(key);
    StoreException translated = GcsErrors.translate(what, key, e, finalizing, store.bucket());
    if (translated instanceof TransientStoreException transientFailure) {
      if (finalizing && transientFailure.mayHaveTakenEffect()) {
        translated = new IndeterminateStoreException(
            what + " may or may not have taken effect: " + e.getMessage(), e);
      } else {
        translated = new TransientStoreException(
            what + " failed; start a new upload: " + e.getMessage(), false, e);
      }
    }
    throw fail(translated);
  }

  private StoreException fail(StoreException e) {
    state = State.FAILED;
    failure = e;
    pending = new byte[0];
    return e;
  }

  @Override
  public void abort() {
    if (state == State.OPEN || state == State.FAILED) {
      state = State.ABORTED;
    }
    // Closing the channel would finalize the object; dropping it leaves the session to expire.
    channel = null;
    pending = new byte[0];
    pendingLength = 0;
  }

  private void requireOpen() {
    if (state != State.OPEN) {
      throw new IllegalStateException(
          "the upload of " + store.where(key) + " is " + state.name().toLowerCase(java.util.Locale.ROOT));
    }
  }
}
