package dev.objlog.store.gcs;

import dev.objlog.store.RequestRateLimiter;
import com.google.api.gax.paging.Page;
import com.google.api.gax.retrying.RetrySettings;
import com.google.auth.Credentials;
import com.google.cloud.ReadChannel;
import com.google.cloud.http.HttpTransportOptions;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.HttpStorageOptions;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.Storage.BlobGetOption;
import com.google.cloud.storage.Storage.BlobListOption;
import com.google.cloud.storage.Storage.BlobSourceOption;
import com.google.cloud.storage.Storage.BlobTargetOption;
import com.google.cloud.storage.Storage.BlobWriteOption;
import com.google.cloud.storage.StorageClass;
import com.google.cloud.storage.StorageOptions;
import dev.objlog.store.CasResult;
import dev.objlog.store.CloudStoreBuilder;
import dev.objlog.store.ConditionalGetResult;
import dev.objlog.store.CreateResult;
import dev.objlog.store.ListPage;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.PreconditionFailedException;
import dev.objlog.store.Retrier;
import dev.objlog.store.RetryPolicy;
import dev.objlog.store.StoreException;
import dev.objlog.store.StoredObject;
import dev.objlog.store.TransientStoreException;
import dev.objlog.store.VersionToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * An {@link ObjectStore} on a Google Cloud Storage bucket, through google-cloud-storage's JSON (HTTP)
 * transport.
 *
 * <p>The version token is the object's generation as a decimal string. Create-only writes send
 * {@code ifGenerationMatch=0}, compare-and-swap sends {@code ifGenerationMatch=<generation>}; GCS
 * evaluates these atomically, so racing writers get exactly one success and HTTP 412 for the rest.
 * Small bodies go up in one multipart request; {@link #startUpload} streams larger ones through a
 * resumable upload that is created with {@code ifGenerationMatch=0} and becomes visible only when
 * its last chunk is finalized.
 *
 * <p>Retries: this adapter retries under its {@link RetryPolicy} (through {@link Retrier}, sleeping
 * through the injected {@link dev.objlog.store.Sleeper}). When it builds its own client it switches the client's
 * retries off, so the two do not multiply, and bounds every request by {@link
 * RetryPolicy#requestTimeout()} (connect and read timeouts). The one exception is the chunk
 * requests of a resumable upload: only the client can resume a session after a lost chunk, so the
 * upload client keeps {@code maxAttempts} retries with the policy's backoff (those sleeps are the
 * client's own). A {@link Storage} passed to {@link Builder#storage} is used as configured; give it
 * {@code RetrySettings.maxAttempts = 1} or its retries run inside each of ours.
 *
 * <p>Thread-safety: safe for concurrent use by many threads. Closing it closes the client only if
 * the store built that client.
 */
public final class GcsObjectStore implements ObjectStore {
  /** GCS accepts resumable chunks in multiples of 256 KiB. */
  public static final int CHUNK_GRANULARITY = 256 * 1024;

  /** 8 MiB: the chunk size Google recommends for resumable uploads. */
  public static final int DEFAULT_UPLOAD_CHUNK_SIZE = 8 * 1024 * 1024;

  private static final String DEFAULT_HOST = "https://storage.googleapis.com";

  /** Body reads pinned to the generation just read; more misses mean a key rewritten constantly. */
  private static final int PINNED_READ_TRIES = 3;

  private final Storage storage;
  private final Storage uploadStorage;
  private final boolean ownsClients;
  private final String bucket;
  private final Retrier retrier;
  private final RequestRateLimiter limiter;
  private final int uploadChunkSize;
  private final @Nullable String kmsKeyName;
  private final @Nullable StorageClass segmentClass;
  private final String description;
  private final AtomicBoolean closed = new AtomicBoolean();

  private GcsObjectStore(Builder b, Storage storage, Storage uploadStorage, boolean ownsClients) {
    this.storage = storage;
    this.uploadStorage = uploadStorage;
    this.ownsClients = ownsClients;
    this.bucket = Objects.requireNonNull(b.bucket);
    this.retrier = b.newRetrier();
    this.limiter = b.newRateLimiter();
    this.kmsKeyName = b.kmsKeyName;
    this.segmentClass = b.segmentClass();
    this.uploadChunkSize = b.uploadChunkSize;
    String host = storage.getOptions().getHost();
    this.description =
        "gcs bucket " + bucket + (host == null || host.equals(DEFAULT_HOST) ? "" : " at " + host);
  }

  public static Builder builder() {
    return new Builder();
  }

  // --- reads --------------------------------------------------------------------------------

  @Override
  public StoredObject get(String key) {
    return retrier.read("GET " + where(key), () -> readPinned(key));
  }

  /**
   * Reads the metadata, then the body pinned to that generation with {@code ifGenerationMatch}, so
   * the bytes and the token always belong to one version. A write in between fails the pinned read
   * (412) and the pair is read again.
   */
  private StoredObject readPinned(String key) {
    for (int tries = 0; tries < PINNED_READ_TRIES; tries++) {
      Blob blob = call("GET metadata " + where(key), key, false, () -> storage.get(blobId(key)));
      if (blob == null) {
        throw new ObjectNotFoundException("GET " + where(key) + ": no such object");
      }
      Optional<StoredObject> pinned = readBody(key, blob);
      if (pinned.isPresent()) {
        return pinned.get();
      }
    }
    throw new TransientStoreException(
        "GET " + where(key) + ": the object changed between every metadata and body read", false);
  }

  /** The body of exactly the version {@code blob} describes, or empty if it was replaced since. */
  private Optional<StoredObject> readBody(String key, Blob blob) {
    long generation = blob.getGeneration();
    try {
      byte[] bytes =
          call("GET " + where(key), key, false,
              () -> storage.readAllBytes(blobId(key), BlobSourceOption.generationMatch(generation)));
      return Optional.of(new StoredObject(metadata(blob, bytes.length), bytes));
    } catch (PreconditionFailedException | ObjectNotFoundException replaced) {
      return Optional.empty();
    }
  }

  @Override
  public byte[] getRange(String key, long offset, int length) {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("offset and length must not be negative: " + offset + ", " + length);
    }
    if (length == 0) {
      if (head(key).isEmpty()) {
        throw new ObjectNotFoundException("GET " + where(key) + ": no such object");
      }
      return new byte[0];
    }
    String what = "GET " + where(key) + " bytes " + offset + "+" + length;
    return retrier.read(what, () -> call(what, key, false, () -> readRange(key, offset, length)));
  }

  /**
   * One ranged media request: the reader sends {@code Range: bytes=offset-(offset+length-1)} and
   * stops at the limit, so only the range crosses the network. GCS answers 416 for a range that
   * starts at or after the end, which the SPI reports as no bytes.
   */
  private byte[] readRange(String key, long offset, int length) {
    ByteBuffer buffer = ByteBuffer.allocate(length);
    try (ReadChannel reader = storage.reader(blobId(key))) {
      reader.setChunkSize(0);
      reader.seek(offset);
      reader.limit(offset + length);
      while (buffer.hasRemaining()) {
        if (reader.read(buffer) < 0) {
          break;
        }
      }
    } catch (IOException e) {
      if (GcsErrors.status(e) == GcsErrors.RANGE_NOT_SATISFIABLE) {
        return new byte[0];
      }
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      if (GcsErrors.status(e) == GcsErrors.RANGE_NOT_SATISFIABLE) {
        return new byte[0];
      }
      throw e;
    }
    return Arrays.copyOf(buffer.array(), buffer.position());
  }

  @Override
  public Optional<ObjectMetadata> head(String key) {
    String what = "HEAD " + where(key);
    Blob blob = retrier.read(what, () -> call(what, key, false, () -> storage.get(blobId(key))));
    return blob == null ? Optional.empty() : Optional.of(metadata(blob, -1));
  }

  @Override
  public ConditionalGetResult getIfChanged(String key, VersionToken known) {
    OptionalLong knownGeneration = generationOf(known);
    if (known.isAbsent() || knownGeneration.isEmpty()) {
      try {
        return new ConditionalGetResult.Changed(get(key));
      } catch (ObjectNotFoundException missing) {
        return new ConditionalGetResult.Missing();
      }
    }
    long generation = knownGeneration.getAsLong();
    return retrier.read("GET if changed " + where(key), () -> readIfChanged(key, generation));
  }

  /**
   * A metadata request with {@code ifGenerationNotMatch} (GCS answers 304 while unchanged, so no
   * body moves), then the body pinned to the new generation. The generation is compared as well,
   * because some emulators ignore the condition.
   */
  private ConditionalGetResult readIfChanged(String key, long known) {
    String what = "GET metadata if changed " + where(key);
    for (int tries = 0; tries < PINNED_READ_TRIES; tries++) {
      Probe probe =
          call(what, key, false,
              () -> {
                try {
                  return new Probe(storage.get(blobId(key), BlobGetOption.generationNotMatch(known)), false);
                } catch (RuntimeException e) {
                  if (GcsErrors.status(e) == GcsErrors.NOT_MODIFIED) {
                    return new Probe(null, true);
                  }
                  throw e;
                }
              });
      Blob blob = probe.blob();
      if (probe.notModified() || (blob != null && blob.getGeneration() == known)) {
        return new ConditionalGetResult.Unchanged();
      }
      if (blob == null) {
        return new ConditionalGetResult.Missing();
      }
      Optional<StoredObject> object = readBody(key, blob);
      if (object.isPresent()) {
        return new ConditionalGetResult.Changed(object.get());
      }
    }
    throw new TransientStoreException(
        "GET " + where(key) + ": the object changed between every metadata and body read", false);
  }

  /** The answer to a metadata request with {@code ifGenerationNotMatch}. */
  private record Probe(@Nullable Blob blob, boolean notModified) {}

  // --- writes -------------------------------------------------------------------------------

  @Override
  public CreateResult putIfAbsent(String key, byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    return putIfAbsent(key, bytes, bytes.length);
  }

  /** Create-only single-request upload of the first {@code length} bytes. */
  CreateResult putIfAbsent(String key, byte[] bytes, int length) {
    String what = "PUT if absent " + where(key);
    return retrier.write(
        what,
        () -> {
          try {
            Blob blob =
                call(what, key, true,
                    () -> storage.create(blobInfo(key), bytes, 0, length, targetOptions(BlobTargetOption.doesNotExist())));
            return new CreateResult.Created(token(blob.getGeneration()));
          } catch (PreconditionFailedException exists) {
            return new CreateResult.AlreadyExists();
          }
        });
  }

  @Override
  public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    OptionalLong expectedGeneration = expected.isAbsent() ? OptionalLong.of(0) : generationOf(expected);
    if (expectedGeneration.isEmpty()) {
      // Not a generation (a token from another store): it cannot match any object here.
      return new CasResult.Conflict(currentOrNull(key));
    }
    long generation = expectedGeneration.getAsLong();
    String what = "PUT if generation " + generation + " " + where(key);
    BlobTargetOption condition =
        generation == 0 ? BlobTargetOption.doesNotExist() : BlobTargetOption.generationMatch(generation);
    return retrier.write(
        what,
        () -> {
          try {
            Blob blob =
                call(what, key, true,
                    () -> storage.create(blobInfo(key), bytes, targetOptions(condition)));
            return new CasResult.Swapped(token(blob.getGeneration()));
          } catch (PreconditionFailedException conflict) {
            return new CasResult.Conflict(currentOrNull(key));
          }
        });
  }

  private @Nullable StoredObject currentOrNull(String key) {
    try {
      return readPinned(key);
    } catch (ObjectNotFoundException missing) {
      return null;
    }
  }

  @Override
  public ObjectUpload startUpload(String key) {
    requireKey(key);
    return new GcsUpload(this, key);
  }

  // --- listing and deletes ------------------------------------------------------------------

  @Override
  public ListPage list(String prefix, String afterKey, int limit) {
    Objects.requireNonNull(prefix, "prefix");
    Objects.requireNonNull(afterKey, "afterKey");
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, was " + limit);
    }
    String what = "LIST " + bucket + "/" + prefix + "*";
    return retrier.read(what, () -> listOnce(what, prefix, afterKey, limit));
  }

  /**
   * GCS's {@code startOffset} is inclusive, so the listing starts at {@code afterKey} and drops it
   * when it is returned; pages ask for {@code limit + 2} names (the dropped key and one more that
   * tells whether the listing goes on).
   */
  private ListPage listOnce(String what, String prefix, String afterKey, int limit) {
    List<BlobListOption> options = new ArrayList<>();
    if (!prefix.isEmpty()) {
      options.add(BlobListOption.prefix(prefix));
    }
    if (!afterKey.isEmpty()) {
      options.add(BlobListOption.startOffset(afterKey));
    }
    options.add(BlobListOption.pageSize(Math.min(1000, (long) limit + 2)));
    BlobListOption[] optionArray = options.toArray(BlobListOption[]::new);
    List<ObjectMetadata> entries = new ArrayList<>();
    Page<Blob> page = call(what, prefix, false, () -> storage.list(bucket, optionArray));
    while (true) {
      for (Blob blob : page.getValues()) {
        if (blob.getName().equals(afterKey)) {
          continue;
        }
        if (entries.size() == limit) {
          return new ListPage(entries, entries.get(limit - 1).key());
        }
        entries.add(metadata(blob, -1));
      }
      if (!page.hasNextPage()) {
        return new ListPage(entries, null);
      }
      Page<Blob> current = page;
      page = call(what, prefix, false, current::getNextPage);
    }
  }

  /**
   * One DELETE per key, in order (GCS bills a batch request per contained call too, and the
   * client's batch endpoint would only save round trips). A missing key answers 404, which the
   * client reports as {@code false}: deleted.
   */
  @Override
  public void delete(Collection<String> keys) {
    for (String key : new LinkedHashSet<>(keys)) {
      String what = "DELETE " + where(key);
      retrier.read(what, () -> call(what, key, true, () -> storage.delete(blobId(key))));
    }
  }

  @Override
  public String describe() {
    return description;
  }

  @Override
  public String toString() {
    return "GcsObjectStore[" + description + "]";
  }

  @Override
  public void close() {
    if (!ownsClients || !closed.compareAndSet(false, true)) {
      return;
    }
    try {
      storage.close();
      uploadStorage.close();
    } catch (Exception e) {
      throw new TransientStoreException("closing the GCS client of " + description + " failed", false, e);
    }
  }

  // --- shared with GcsUpload ----------------------------------------------------------------

  Storage uploadStorage() {
    return uploadStorage;
  }

  int uploadChunkSize() {
    return uploadChunkSize;
  }

  RequestRateLimiter limiter() {
    return limiter;
  }

  BlobInfo blobInfo(String key) {
    BlobInfo.Builder info = BlobInfo.newBuilder(blobId(key)).setContentType(contentType(key));
    if (segmentClass != null && CloudStoreBuilder.isSegmentKey(key)) {
      info.setStorageClass(segmentClass);
    }
    return info.build();
  }

  /** The options of a single-request write: its condition, no gzip, and the KMS key if any. */
  private BlobTargetOption[] targetOptions(BlobTargetOption condition) {
    return kmsKeyName == null
        ? new BlobTargetOption[] {condition, BlobTargetOption.disableGzipContent()}
        : new BlobTargetOption[] {condition, BlobTargetOption.disableGzipContent(), BlobTargetOption.kmsKeyName(kmsKeyName)};
  }

  /** The options of a resumable upload: create-only, no gzip, and the KMS key if any. */
  BlobWriteOption[] writeOptions() {
    return kmsKeyName == null
        ? new BlobWriteOption[] {BlobWriteOption.doesNotExist(), BlobWriteOption.disableGzipContent()}
        : new BlobWriteOption[] {
          BlobWriteOption.doesNotExist(), BlobWriteOption.disableGzipContent(), BlobWriteOption.kmsKeyName(kmsKeyName)
        };
  }

  /** The bucket, for the uploads' error messages. */
  String bucket() {
    return bucket;
  }

  String where(String key) {
    return bucket + "/" + key;
  }

  static VersionToken token(@Nullable Long generation) {
    if (generation == null) {
      throw new TransientStoreException("GCS answered without an object generation", false);
    }
    return VersionToken.of(Long.toString(generation));
  }

  // --- helpers ------------------------------------------------------------------------------

  /**
   * One request on {@code key} (or a listing's prefix) under the rate limit, with the client's
   * failures translated. Store exceptions
   * thrown inside (from nested calls) pass through untouched.
   */
  private <T> T call(String what, String key, boolean write, Supplier<T> request) {
    limiter.acquire();
    try {
      return request.get();
    } catch (StoreException e) {
      throw e;
    } catch (UncheckedIOException e) {
      throw GcsErrors.translate(what, key, e.getCause(), write, bucket);
    } catch (RuntimeException e) {
      throw GcsErrors.translate(what, key, e, write, bucket);
    }
  }

  private BlobId blobId(String key) {
    requireKey(key);
    return BlobId.of(bucket, key);
  }

  private static void requireKey(String key) {
    Objects.requireNonNull(key, "key");
    if (key.isEmpty()) {
      throw new IllegalArgumentException("object keys must not be empty");
    }
  }

  private static String contentType(String key) {
    return key.endsWith(".json") ? "application/json" : "application/octet-stream";
  }

  private static OptionalLong generationOf(VersionToken token) {
    if (token.isAbsent()) {
      return OptionalLong.empty();
    }
    try {
      long generation = Long.parseLong(token.value());
      return generation > 0 ? OptionalLong.of(generation) : OptionalLong.empty();
    } catch (NumberFormatException notAGeneration) {
      return OptionalLong.empty();
    }
  }

  /** @param knownSize the body length when it was just read, or -1 to take the listed size */
  private static ObjectMetadata metadata(Blob blob, long knownSize) {
    long size = knownSize >= 0 ? knownSize : blob.getSize() == null ? 0 : blob.getSize();
    return new ObjectMetadata(blob.getName(), size, token(blob.getGeneration()), modified(blob));
  }

  private static Instant modified(Blob blob) {
    OffsetDateTime updated = blob.getUpdateTimeOffsetDateTime();
    if (updated == null) {
      updated = blob.getCreateTimeOffsetDateTime();
    }
    return updated == null ? Instant.EPOCH : updated.toInstant();
  }

  /**
   * Configures a {@link GcsObjectStore}. Either pass an existing {@link Storage} (the store never
   * closes it), or let the store build one from project, host and credentials (defaults:
   * application default credentials and project, the public endpoint).
   *
   * <p>Thread-safety: not thread-safe; configure on one thread, then {@link #build()}.
   */
  public static final class Builder extends CloudStoreBuilder<Builder> {
    /** The classes new objects can be written with (the legacy ones are not). All are readable without a restore. */
    private static final List<String> WRITABLE_CLASSES = List.of("STANDARD", "NEARLINE", "COLDLINE", "ARCHIVE");
    private static final java.util.regex.Pattern KMS_KEY_NAME =
        java.util.regex.Pattern.compile("projects/[^/]+/locations/[^/]+/keyRings/[^/]+/cryptoKeys/[^/]+");

    private @Nullable String bucket;
    private @Nullable Storage storage;
    private @Nullable String projectId;
    private @Nullable String host;
    private @Nullable Credentials credentials;
    private @Nullable String kmsKeyName;
    private int uploadChunkSize = DEFAULT_UPLOAD_CHUNK_SIZE;

    private Builder() {}

    /** The bucket; required. It must exist: the store never creates buckets. */
    public Builder bucket(String bucket) {
      this.bucket = Objects.requireNonNull(bucket, "bucket");
      return this;
    }

    /**
     * Reuses a client (for example an application's {@code Storage} bean). The store uses its
     * retry, timeout and write-session settings as they are and never closes it; configure it with
     * {@code RetrySettings.maxAttempts = 1} so that this store's {@link RetryPolicy} governs (its
     * resumable uploads then get no chunk retries either). Excludes {@link #projectId}, {@link
     * #host} and {@link #credentials}.
     */
    public Builder storage(Storage storage) {
      this.storage = Objects.requireNonNull(storage, "storage");
      return this;
    }

    /** The project of the client the store builds; default: from the environment. */
    public Builder projectId(String projectId) {
      this.projectId = Objects.requireNonNull(projectId, "projectId");
      return this;
    }

    /** The endpoint, e.g. {@code http://127.0.0.1:4443} for an emulator; default: the public API. */
    public Builder host(String host) {
      this.host = Objects.requireNonNull(host, "host");
      return this;
    }

    /** Credentials for the client the store builds; default: application default credentials. */
    public Builder credentials(Credentials credentials) {
      this.credentials = Objects.requireNonNull(credentials, "credentials");
      return this;
    }

    /**
     * Customer-managed encryption: every object is written under this Cloud KMS key, {@code
     * projects/<p>/locations/<l>/keyRings/<r>/cryptoKeys/<k>} (sent as {@code kmsKeyName} on every
     * upload, resumable ones included). Default: the bucket's default key. The bucket's service
     * agent needs {@code roles/cloudkms.cryptoKeyEncrypterDecrypter} on the key (docs/stores/gcs.md).
     */
    public Builder kmsKeyName(String kmsKeyName) {
      Objects.requireNonNull(kmsKeyName, "kmsKeyName");
      if (!KMS_KEY_NAME.matcher(kmsKeyName.strip()).matches()) {
        throw new IllegalArgumentException(
            "'" + kmsKeyName + "' is not a Cloud KMS key name; expected"
                + " projects/<project>/locations/<location>/keyRings/<ring>/cryptoKeys/<key>");
      }
      this.kmsKeyName = kmsKeyName.strip();
      return this;
    }

    /**
     * Bytes per resumable-upload request, a positive multiple of 256 KiB; default 8 MiB. Uploads
     * that stay within one chunk are sent as a single request instead. Each upload holds up to
     * two chunks in memory (its own buffer and the client's).
     */
    public Builder uploadChunkSize(int bytes) {
      if (bytes < CHUNK_GRANULARITY || bytes % CHUNK_GRANULARITY != 0) {
        throw new IllegalArgumentException(
            "uploadChunkSize must be a positive multiple of 256 KiB (262144), was " + bytes);
      }
      this.uploadChunkSize = bytes;
      return this;
    }

    public GcsObjectStore build() {
      if (bucket == null || bucket.isEmpty()) {
        throw new IllegalStateException("GcsObjectStore needs a bucket: call bucket(name)");
      }
      if (storage != null) {
        if (projectId != null || host != null || credentials != null) {
          throw new IllegalStateException(
              "pass either an existing Storage client or projectId/host/credentials to build one, not both");
        }
        return new GcsObjectStore(this, storage, storage, false);
      }
      HttpStorageOptions options = clientOptions();
      Storage main = options.getService();
      Storage uploads =
          options.toBuilder().setRetrySettings(uploadRetries(configuredRetryPolicy())).build().getService();
      return new GcsObjectStore(this, main, uploads, true);
    }

    @Override
    protected void checkSegmentStorageClass(String name) {
      if (!WRITABLE_CLASSES.contains(name.toUpperCase(java.util.Locale.ROOT))) {
        throw unknownStorageClass("GCS", name, String.join(", ", WRITABLE_CLASSES));
      }
    }

    private @Nullable StorageClass segmentClass() {
      String name = configuredSegmentStorageClass();
      return name == null ? null : StorageClass.valueOfStrict(name.toUpperCase(java.util.Locale.ROOT));
    }

    private HttpStorageOptions clientOptions() {
      RetryPolicy retryPolicy = configuredRetryPolicy();
      int timeoutMillis = (int) Math.min(Integer.MAX_VALUE, retryPolicy.requestTimeout().toMillis());
      HttpStorageOptions.Builder options =
          StorageOptions.http()
              .setTransportOptions(
                  HttpTransportOptions.newBuilder()
                      .setConnectTimeout(timeoutMillis)
                      .setReadTimeout(timeoutMillis)
                      .build())
              .setRetrySettings(singleAttempt(retryPolicy.requestTimeout()));
      if (projectId != null) {
        options.setProjectId(projectId);
      }
      if (host != null) {
        options.setHost(host);
      }
      if (credentials != null) {
        options.setCredentials(credentials);
      }
      return options.build();
    }

    private static RetrySettings singleAttempt(Duration timeout) {
      return RetrySettings.newBuilder()
          .setMaxAttempts(1)
          .setTotalTimeoutDuration(timeout)
          .setInitialRpcTimeoutDuration(timeout)
          .setMaxRpcTimeoutDuration(timeout)
          .setRpcTimeoutMultiplier(1.0)
          .setInitialRetryDelayDuration(Duration.ZERO)
          .setMaxRetryDelayDuration(Duration.ZERO)
          .setRetryDelayMultiplier(1.0)
          .build();
    }

    private static RetrySettings uploadRetries(RetryPolicy policy) {
      Duration total = policy.requestTimeout().multipliedBy(policy.maxAttempts()).plus(
          policy.maxBackoff().multipliedBy(policy.maxAttempts()));
      return RetrySettings.newBuilder()
          .setMaxAttempts(policy.maxAttempts())
          .setTotalTimeoutDuration(total)
          .setInitialRpcTimeoutDuration(policy.requestTimeout())
          .setMaxRpcTimeoutDuration(policy.requestTimeout())
          .setRpcTimeoutMultiplier(1.0)
          .setInitialRetryDelayDuration(policy.initialBackoff())
          .setMaxRetryDelayDuration(policy.maxBackoff())
          .setRetryDelayMultiplier(2.0)
          .setJittered(policy.jitter() > 0)
          .build();
    }
  }
}
