package dev.objlog.store.s3;

import dev.objlog.store.CreateResult;
import dev.objlog.store.IndeterminateStoreException;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.PermanentStoreException;
import dev.objlog.store.PreconditionFailedException;
import dev.objlog.store.StoreException;
import dev.objlog.store.TransientStoreException;
import dev.objlog.store.VersionToken;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * A streaming create-only upload: bytes collect in a buffer of one part; a full part goes out as
 * an UploadPart as soon as more bytes arrive, so the last part is never empty. A body that never
 * fills a part is written by one conditional PutObject at completion, which is cheaper than a
 * multipart upload and leaves no staging debris.
 *
 * <p>Thread-safety: not thread-safe (one producer, as {@link ObjectUpload} says).
 */
final class S3Upload implements ObjectUpload {
  /** S3's limit on parts per upload. */
  private static final int MAX_PARTS = 10_000;

  private enum State { OPEN, COMPLETED, ABORTED, FAILED }

  private final S3ObjectStore store;
  private final String key;
  private final int partSize;
  private byte[] buffer = new byte[0];
  private int buffered;
  private long written;
  private @Nullable String uploadId;
  private final List<CompletedPart> parts = new ArrayList<>();
  private State state = State.OPEN;

  S3Upload(S3ObjectStore store, String key) {
    this.store = store;
    this.key = key;
    this.partSize = store.partSize();
  }

  @Override
  public String key() {
    return key;
  }

  @Override
  public void write(byte[] bytes, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, bytes.length);
    requireOpen("write");
    int pos = offset;
    int end = offset + length;
    while (pos < end) {
      if (buffered == partSize) {
        flushPart();
      }
      int n = Math.min(end - pos, partSize - buffered);
      ensureCapacity(buffered + n);
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
    requireOpen("complete");
    try {
      CreateResult result = uploadId == null ? putWhole() : completeMultipart();
      state = result.created() ? State.COMPLETED : State.ABORTED;
      return result;
    } catch (RuntimeException e) {
      state = State.FAILED;
      throw e;
    }
  }

  @Override
  public void abort() {
    if (state == State.COMPLETED || state == State.ABORTED) {
      return;
    }
    state = State.ABORTED;
    buffer = new byte[0];
    buffered = 0;
    String id = uploadId;
    if (id != null) {
      abortMultipart(id);
    }
  }

  private CreateResult putWhole() {
    byte[] body = buffered == buffer.length ? buffer : Arrays.copyOf(buffer, buffered);
    buffer = new byte[0];
    return store.putIfAbsent(key, body);
  }

  private CreateResult completeMultipart() {
    flushPart();
    String id = Objects.requireNonNull(uploadId);
    CompletedMultipartUpload manifest = CompletedMultipartUpload.builder().parts(parts).build();
    boolean[] maybeCompleted = {false};
    Optional<VersionToken> token =
        store
            .retrier()
            .write(
                "complete upload of " + S3Errors.location(store.bucket(), key),
                () -> {
                  store.acquirePermit();
                  try {
                    var response =
                        store
                            .client()
                            .completeMultipartUpload(
                                b -> b.bucket(store.bucket())
                                    .key(key)
                                    .uploadId(id)
                                    .multipartUpload(manifest)
                                    .ifNoneMatch("*")
                                    .overrideConfiguration(store.perRequest()));
                    return Optional.of(ETags.token(response.eTag(), "complete upload of " + key));
                  } catch (SdkException e) {
                    if (S3Errors.hasCode(e, "NoSuchUpload") && maybeCompleted[0]) {
                      // An earlier try that we lost the answer to completed the upload.
                      throw new IndeterminateStoreException(
                          "completing the upload of " + S3Errors.location(store.bucket(), key)
                              + " may or may not have taken effect: a retry found the upload gone",
                          e);
                    }
                    StoreException classified =
                        S3Errors.classify(e, "complete upload", store.bucket(), key, true, true);
                    if (classified instanceof PreconditionFailedException) {
                      return Optional.<VersionToken>empty();
                    }
                    if (classified instanceof TransientStoreException t && t.mayHaveTakenEffect()) {
                      maybeCompleted[0] = true;
                    }
                    throw classified;
                  }
                });
    if (token.isPresent()) {
      return new CreateResult.Created(token.get());
    }
    // S3 keeps the parts of an upload whose completion failed its condition; release them. The
    // answer is already known, so a failed abort only leaves parts for the bucket's
    // AbortIncompleteMultipartUpload rule and must not turn "already exists" into an error.
    try {
      abortMultipart(id);
    } catch (StoreException debrisLeft) {
      // Intentionally ignored; see above.
    }
    return new CreateResult.AlreadyExists();
  }

  private void flushPart() {
    if (buffered == 0) {
      return;
    }
    if (parts.size() >= MAX_PARTS) {
      state = State.FAILED;
      throw new PermanentStoreException(
          "upload of " + S3Errors.location(store.bucket(), key) + " exceeds S3's 10,000 parts of "
              + partSize + " bytes; raise the S3 store's part size");
    }
    String id = uploadId == null ? createMultipart() : uploadId;
    int partNumber = parts.size() + 1;
    byte[] body = buffer;
    int length = buffered;
    String what = "upload part " + partNumber + " of " + S3Errors.location(store.bucket(), key);
    String etag =
        store
            .retrier()
            .read(
                what,
                () -> {
                  store.acquirePermit();
                  try {
                    return store
                        .client()
                        .uploadPart(
                            b -> b.bucket(store.bucket())
                                .key(key)
                                .uploadId(id)
                                .partNumber(partNumber)
                                .contentLength((long) length)
                                .overrideConfiguration(store.perRequest()),
                            S3ObjectStore.body(body, length, key))
                        .eTag();
                  } catch (SdkException e) {
                    throw S3Errors.classify(e, "upload part " + partNumber, store.bucket(), key, true, false);
                  }
                });
    parts.add(CompletedPart.builder().partNumber(partNumber).eTag(ETags.token(etag, what).value()).build());
    buffered = 0;
  }

  private String createMultipart() {
    String id =
        store
            .retrier()
            .read(
                "start upload of " + S3Errors.location(store.bucket(), key),
                () -> {
                  store.acquirePermit();
                  try {
                    return store
                        .client()
                        .createMultipartUpload(
                            b -> {
                              b.bucket(store.bucket())
                                  .key(key)
                                  .contentType(S3ObjectStore.contentType(key))
                                  .overrideConfiguration(store.perRequest());
                              store.writeSettings(key, b);
                            })
                        .uploadId();
                  } catch (SdkException e) {
                    throw S3Errors.classify(e, "start upload", store.bucket(), key, true, false);
                  }
                });
    uploadId = id;
    return id;
  }

  private void abortMultipart(String id) {
    store
        .retrier()
        .read(
            "abort upload of " + S3Errors.location(store.bucket(), key),
            () -> {
              store.acquirePermit();
              try {
                store
                    .client()
                    .abortMultipartUpload(
                        b -> b.bucket(store.bucket()).key(key).uploadId(id).overrideConfiguration(store.perRequest()));
              } catch (SdkException e) {
                if (!S3Errors.hasCode(e, "NoSuchUpload")) {
                  throw S3Errors.classify(e, "abort upload", store.bucket(), key, true, false);
                }
              }
              return null;
            });
  }

  private void ensureCapacity(int needed) {
    if (needed > buffer.length) {
      int grown = (int) Math.min(partSize, Math.max((long) needed, Math.max(64 * 1024L, buffer.length * 2L)));
      buffer = Arrays.copyOf(buffer, grown);
    }
  }

  private void requireOpen(String what) {
    if (state != State.OPEN) {
      throw new IllegalStateException("cannot " + what + " an upload that is " + state.name().toLowerCase(java.util.Locale.ROOT));
    }
  }
}
