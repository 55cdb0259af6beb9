package dev.objlog.store.azure;

import dev.objlog.store.KeyOrder;
import dev.objlog.store.RequestRateLimiter;
import com.azure.core.http.HttpClient;
import com.azure.core.http.rest.PagedResponse;
import com.azure.core.http.rest.Response;
import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import com.azure.core.util.HttpClientOptions;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.models.BlobDownloadContentResponse;
import com.azure.storage.blob.models.BlobDownloadHeaders;
import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobHttpHeaders;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobItemProperties;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.models.BlobRange;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.AccessTier;
import com.azure.storage.blob.models.BlockBlobItem;
import com.azure.storage.blob.models.DeleteSnapshotsOptionType;
import com.azure.storage.blob.models.DownloadRetryOptions;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.blob.options.BlockBlobCommitBlockListOptions;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
import com.azure.storage.blob.options.BlockBlobStageBlockOptions;
import com.azure.storage.blob.specialized.BlockBlobClient;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.objlog.store.CasResult;
import dev.objlog.store.CloudStoreBuilder;
import dev.objlog.store.ConditionalGetResult;
import dev.objlog.store.CreateResult;
import dev.objlog.store.ListPage;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.PermanentStoreException;
import dev.objlog.store.PreconditionFailedException;
import dev.objlog.store.Retrier;
import dev.objlog.store.StoreException;
import dev.objlog.store.StoredObject;
import dev.objlog.store.TransientStoreException;
import dev.objlog.store.VersionToken;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * An {@link ObjectStore} on one Azure Blob Storage container, using block blobs.
 *
 * <p>Create-only writes send {@code If-None-Match: *}, compare-and-swap sends {@code If-Match:
 * "<etag>"}; the service answers a failed condition with 409 {@code BlobAlreadyExists} or 412
 * {@code ConditionNotMet}, and both become the SPI's "already exists" / conflict answers (a
 * conflicting compare-and-swap then reads the current object once). Streaming uploads stage blocks
 * of {@link Builder#blockSize(int)} bytes and commit the block list create-only; bodies smaller
 * than one block go up as a single conditional Put Blob. Listing has no {@code StartAfter} on
 * every service version: the store asks for {@code startFrom} and also filters on the client, and
 * remembers the continuation marker of each page it hands out so that paging onwards does not
 * re-scan. Deletes run one request per key, in parallel up to {@link Builder#deleteConcurrency}.
 *
 * <p>Thread-safety: safe for concurrent use by many threads; uploads it starts are not (see
 * {@link ObjectUpload}).
 */
public final class AzureBlobObjectStore implements ObjectStore {

  /** Azure lists at most this many blobs per request. */
  static final int MAX_LIST_PAGE = 5000;

  /** Azure accepts at most this many blocks in one block list. */
  static final int MAX_BLOCKS = 50_000;

  private static final String OCTET_STREAM = "application/octet-stream";
  private static final String JSON = "application/json";

  // The SDK's own download resumption would be a second retry loop under ours.
  private static final DownloadRetryOptions NO_DOWNLOAD_RETRIES = new DownloadRetryOptions().setMaxRetryRequests(0);

  private final BlobContainerClient container;
  private final String containerName;
  private final String description;
  private final Retrier retrier;
  private final Duration timeout;
  private final int blockSize;
  private final RequestRateLimiter limiter;
  private final @Nullable String encryptionScope;
  private final @Nullable AccessTier segmentTier;
  private final int deleteConcurrency;
  private final ExecutorService deleteExecutor;
  private final boolean ownsDeleteExecutor;
  private final Cache<ListCursor, String> listCursors;

  private AzureBlobObjectStore(Builder b, BlobContainerClient container) {
    this.container = container;
    this.containerName = container.getBlobContainerName();
    this.description = "Azure Blob container " + containerName + " at " + withoutQuery(container.getBlobContainerUrl());
    this.retrier = b.newRetrier();
    this.timeout = b.configuredRetryPolicy().requestTimeout();
    this.blockSize = b.blockSize;
    this.limiter = b.newRateLimiter();
    this.encryptionScope = b.encryptionScope;
    this.segmentTier = b.segmentTier();
    this.deleteConcurrency = b.deleteConcurrency;
    if (b.deleteExecutor != null) {
      this.deleteExecutor = b.deleteExecutor;
      this.ownsDeleteExecutor = false;
    } else {
      this.deleteExecutor = newDeletePool(b.deleteConcurrency);
      this.ownsDeleteExecutor = true;
    }
    // Maintenance runs inline so that the cache starts no background work of its own.
    this.listCursors = Caffeine.newBuilder().maximumSize(1024).executor(Runnable::run).build();
  }

  /** A builder; set exactly one of the client, connection-string or endpoint options. */
  public static Builder builder() {
    return new Builder();
  }

  // --- reads -------------------------------------------------------------------------------

  @Override
  public StoredObject get(String key) {
    requireKey(key);
    String what = "GET " + key;
    return retrier.read(what, () -> call(what, key, false, () -> download(key, null)));
  }

  @Override
  public byte[] getRange(String key, long offset, int length) {
    requireKey(key);
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("offset and length must not be negative: " + offset + ", " + length);
    }
    if (length == 0) {
      // An HTTP range cannot be empty; the answer still has to say whether the key exists.
      if (head(key).isEmpty()) {
        throw new ObjectNotFoundException("GET " + key + ": no such object");
      }
      return new byte[0];
    }
    String what = "GET " + key + " bytes " + offset + "+" + length;
    return retrier.read(
        what,
        () ->
            call(
                what, key,
                false,
                () -> {
                  try {
                    BlobDownloadContentResponse response =
                        blob(key)
                            .downloadContentWithResponse(
                                NO_DOWNLOAD_RETRIES,
                                null,
                                new BlobRange(offset, (long) length),
                                false,
                                timeout,
                                Context.NONE);
                    return response.getValue().toBytes();
                  } catch (BlobStorageException e) {
                    // 416 InvalidRange: the blob exists (a missing one answers 404) and ends at or
                    // before offset, which includes every range of an empty blob.
                    if (e.getStatusCode() == 416) {
                      return new byte[0];
                    }
                    throw e;
                  }
                }));
  }

  @Override
  public Optional<ObjectMetadata> head(String key) {
    requireKey(key);
    String what = "HEAD " + key;
    try {
      return Optional.of(
          retrier.read(
              what,
              () ->
                  call(
                      what, key,
                      false,
                      () -> {
                        Response<BlobProperties> response =
                            blob(key).getPropertiesWithResponse(null, timeout, Context.NONE);
                        BlobProperties p = response.getValue();
                        return new ObjectMetadata(key, p.getBlobSize(), token(p.getETag()), instant(p.getLastModified()));
                      })));
    } catch (ObjectNotFoundException e) {
      return Optional.empty();
    }
  }

  @Override
  public ConditionalGetResult getIfChanged(String key, VersionToken known) {
    requireKey(key);
    Objects.requireNonNull(known, "known");
    try {
      if (known.isAbsent()) {
        return new ConditionalGetResult.Changed(get(key));
      }
      String what = "GET " + key + " if not " + known;
      BlobRequestConditions notKnown = new BlobRequestConditions().setIfNoneMatch(quote(known));
      Optional<StoredObject> changed =
          retrier.read(
              what,
              () ->
                  call(
                      what, key,
                      false,
                      () -> {
                        try {
                          return Optional.of(download(key, notKnown));
                        } catch (BlobStorageException e) {
                          if (e.getStatusCode() == 304) {
                            return Optional.<StoredObject>empty();
                          }
                          throw e;
                        }
                      }));
      // Comparing the token keeps the answer right behind a proxy or emulator that ignores the
      // condition and sends the body anyway.
      if (changed.isEmpty() || changed.get().token().equals(known)) {
        return new ConditionalGetResult.Unchanged();
      }
      return new ConditionalGetResult.Changed(changed.get());
    } catch (ObjectNotFoundException e) {
      return new ConditionalGetResult.Missing();
    }
  }

  private StoredObject download(String key, @Nullable BlobRequestConditions conditions) {
    BlobDownloadContentResponse response =
        blob(key).downloadContentWithResponse(NO_DOWNLOAD_RETRIES, conditions, null, false, timeout, Context.NONE);
    BlobDownloadHeaders headers = response.getDeserializedHeaders();
    byte[] bytes = response.getValue().toBytes();
    return new StoredObject(
        new ObjectMetadata(key, bytes.length, token(headers.getETag()), instant(headers.getLastModified())), bytes);
  }

  // --- writes ------------------------------------------------------------------------------

  @Override
  public CreateResult putIfAbsent(String key, byte[] bytes) {
    requireKey(key);
    Objects.requireNonNull(bytes, "bytes");
    return createOnly(key, bytes);
  }

  private CreateResult createOnly(String key, byte[] bytes) {
    try {
      return new CreateResult.Created(upload(key, bytes, ifNoneMatchAny(), "PUT " + key + " (create-only)"));
    } catch (PreconditionFailedException e) {
      if (head(key).isPresent()) {
        return new CreateResult.AlreadyExists();
      }
      // Nothing committed, yet Put Blob said "exists": the uncommitted blocks of an abandoned
      // staged upload count as a blob for If-None-Match there (Azurite does this). Put Block
      // List with the same condition replaces them, so create through it.
      return createThroughBlockList(key, bytes);
    }
  }

  private CreateResult createThroughBlockList(String key, byte[] bytes) {
    if (bytes.length == 0) {
      return commitBlocks(key, List.of());
    }
    String blockId = AzureBlockUpload.blockId(AzureBlockUpload.newSession(), 0);
    stageBlock(key, blockId, bytes);
    return commitBlocks(key, List.of(blockId));
  }

  @Override
  public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) {
    requireKey(key);
    Objects.requireNonNull(expected, "expected");
    Objects.requireNonNull(bytes, "bytes");
    if (expected.isAbsent()) {
      CreateResult created = createOnly(key, bytes);
      return created instanceof CreateResult.Created c
          ? new CasResult.Swapped(c.token())
          : new CasResult.Conflict(currentOrNull(key));
    }
    BlobRequestConditions condition = new BlobRequestConditions().setIfMatch(quote(expected));
    try {
      return new CasResult.Swapped(upload(key, bytes, condition, "PUT " + key + " if " + expected));
    } catch (PreconditionFailedException | ObjectNotFoundException e) {
      // If-Match on a missing blob is a 412 on Azure and Azurite; a 404 would mean the same.
      return new CasResult.Conflict(currentOrNull(key));
    }
  }

  private VersionToken upload(String key, byte[] bytes, BlobRequestConditions condition, String what) {
    return retrier.write(
        what,
        () ->
            call(
                what, key,
                true,
                () -> {
                  BlockBlobSimpleUploadOptions options =
                      new BlockBlobSimpleUploadOptions(BinaryData.fromBytes(bytes))
                          .setHeaders(headers(key))
                          .setTier(tier(key))
                          .setRequestConditions(condition);
                  BlockBlobItem item = blockBlob(key).uploadWithResponse(options, timeout, Context.NONE).getValue();
                  return token(item.getETag());
                }));
  }

  private @Nullable StoredObject currentOrNull(String key) {
    try {
      return get(key);
    } catch (ObjectNotFoundException e) {
      return null;
    }
  }

  @Override
  public ObjectUpload startUpload(String key) {
    requireKey(key);
    return new AzureBlockUpload(this, key, blockSize);
  }

  /** Stages one block; invisible until committed, so retrying is always safe. */
  void stageBlock(String key, String blockId, byte[] block) {
    String what = "PUT BLOCK " + key + " #" + blockId;
    retrier.read(
        what,
        () ->
            call(
                what, key,
                true,
                () ->
                    blockBlob(key)
                        .stageBlockWithResponse(
                            new BlockBlobStageBlockOptions(blockId, BinaryData.fromBytes(block)), timeout, Context.NONE)));
  }

  /** Commits the staged blocks create-only. */
  CreateResult commitBlocks(String key, List<String> blockIds) {
    String what = "PUT BLOCK LIST " + key + " (create-only, " + blockIds.size() + " blocks)";
    try {
      VersionToken token =
          retrier.write(
              what,
              () ->
                  call(
                      what, key,
                      true,
                      () -> {
                        BlockBlobCommitBlockListOptions options =
                            new BlockBlobCommitBlockListOptions(blockIds)
                                .setHeaders(headers(key))
                                .setTier(tier(key))
                                .setRequestConditions(ifNoneMatchAny());
                        return token(blockBlob(key).commitBlockListWithResponse(options, timeout, Context.NONE).getValue().getETag());
                      }));
      return new CreateResult.Created(token);
    } catch (PreconditionFailedException e) {
      return new CreateResult.AlreadyExists();
    } catch (PermanentStoreException e) {
      BlobStorageException cause = AzureErrors.find(e, BlobStorageException.class);
      if (cause != null && BlobErrorCode.INVALID_BLOCK_LIST.equals(cause.getErrorCode())) {
        // Committing a blob discards every uncommitted block of that name, so a racing writer
        // that committed first leaves our block list pointing at nothing.
        if (head(key).isPresent()) {
          return new CreateResult.AlreadyExists();
        }
        throw new PermanentStoreException(
            what + ": the staged blocks no longer exist (Azure drops uncommitted blocks after seven days,"
                + " or when the blob was written and deleted meanwhile); start the upload again",
            e);
      }
      throw e;
    }
  }

  // --- listing -----------------------------------------------------------------------------

  @Override
  public ListPage list(String prefix, String afterKey, int limit) {
    Objects.requireNonNull(prefix, "prefix");
    Objects.requireNonNull(afterKey, "afterKey");
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, was " + limit);
    }
    String what = "LIST " + (prefix.isEmpty() ? "<all>" : prefix) + (afterKey.isEmpty() ? "" : " after " + afterKey);
    String marker = afterKey.isEmpty() ? null : listCursors.getIfPresent(new ListCursor(prefix, afterKey));
    ListBlobsOptions options = new ListBlobsOptions();
    if (!prefix.isEmpty()) {
      options.setPrefix(prefix);
    }
    int pageSize = limit;
    if (!afterKey.isEmpty() && marker == null) {
      // startFrom is inclusive, and services or emulators that predate it ignore it; the filter
      // below keeps the answer right either way. One extra entry covers afterKey itself.
      options.setStartFrom(afterKey);
      pageSize = limit + 1;
    }
    options.setMaxResultsPerPage(Math.min(MAX_LIST_PAGE, pageSize));

    List<ObjectMetadata> entries = new ArrayList<>();
    String pageMarker = marker;
    while (true) {
      String requested = pageMarker;
      PagedResponse<BlobItem> page = retrier.read(what, () -> call(what, prefix, false, () -> fetchPage(options, requested)));
      List<BlobItem> items = page == null ? List.of() : page.getValue();
      String next = page == null ? null : emptyToNull(page.getContinuationToken());
      for (int i = 0; i < items.size(); i++) {
        BlobItem item = items.get(i);
        String name = item.getName();
        if (!name.startsWith(prefix) || KeyOrder.compare(name, afterKey) <= 0) {
          continue;
        }
        entries.add(metadata(item));
        if (entries.size() == limit) {
          boolean lastOfPage = i == items.size() - 1;
          if (lastOfPage && next == null) {
            return new ListPage(entries, null);
          }
          // Resume from the next page when this one was used up; otherwise re-read this page
          // (its marker lies before the last key, so nothing after that key can be skipped).
          String resume = lastOfPage ? next : requested;
          if (resume != null) {
            listCursors.put(new ListCursor(prefix, name), resume);
          }
          return new ListPage(entries, name);
        }
      }
      if (next == null) {
        return new ListPage(entries, null);
      }
      pageMarker = next;
    }
  }

  private @Nullable PagedResponse<BlobItem> fetchPage(ListBlobsOptions options, @Nullable String marker) {
    Iterator<PagedResponse<BlobItem>> pages = container.listBlobs(options, marker, timeout).iterableByPage().iterator();
    return pages.hasNext() ? pages.next() : null;
  }

  private static ObjectMetadata metadata(BlobItem item) {
    BlobItemProperties p = item.getProperties();
    Long size = p.getContentLength();
    return new ObjectMetadata(item.getName(), size == null ? 0 : size, token(p.getETag()), instant(p.getLastModified()));
  }

  // --- delete ------------------------------------------------------------------------------

  @Override
  public void delete(Collection<String> keys) {
    List<String> unique = List.copyOf(new LinkedHashSet<>(keys));
    unique.forEach(AzureBlobObjectStore::requireKey);
    int workers = Math.min(deleteConcurrency, unique.size());
    if (workers <= 1) {
      unique.forEach(this::deleteOne);
      return;
    }
    ConcurrentLinkedQueue<String> queue = new ConcurrentLinkedQueue<>(unique);
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    List<Future<?>> running = new ArrayList<>(workers);
    for (int w = 0; w < workers; w++) {
      running.add(
          deleteExecutor.submit(
              () -> {
                String key;
                while (failure.get() == null && (key = queue.poll()) != null) {
                  try {
                    deleteOne(key);
                  } catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                  }
                }
              }));
    }
    try {
      for (Future<?> f : running) {
        f.get();
      }
    } catch (InterruptedException e) {
      running.forEach(f -> f.cancel(true));
      Thread.currentThread().interrupt();
      throw new TransientStoreException("DELETE of " + unique.size() + " keys was interrupted", true, e);
    } catch (ExecutionException e) {
      throw new PermanentStoreException("DELETE worker failed unexpectedly", e.getCause());
    }
    RuntimeException first = failure.get();
    if (first != null) {
      throw first;
    }
  }

  private void deleteOne(String key) {
    String what = "DELETE " + key;
    try {
      // Idempotent: a retry after an applied delete finds nothing and that is success.
      retrier.read(
          what,
          () ->
              call(
                  what, key,
                  true,
                  () -> blob(key).deleteWithResponse(DeleteSnapshotsOptionType.INCLUDE, null, timeout, Context.NONE)));
    } catch (ObjectNotFoundException e) {
      // Already gone.
    }
  }

  // --- the rest ----------------------------------------------------------------------------

  @Override
  public String describe() {
    return description;
  }

  @Override
  public String toString() {
    return "AzureBlobObjectStore[" + description + "]";
  }

  @Override
  public void close() {
    if (ownsDeleteExecutor) {
      deleteExecutor.shutdownNow();
    }
  }

  /**
   * One try of a request on {@code key} (or a listing's prefix): waits for the rate limit, runs it
   * and classifies what it throws.
   */
  private <T> T call(String what, String key, boolean write, Supplier<T> request) {
    limiter.acquire();
    try {
      return request.get();
    } catch (StoreException e) {
      throw e;
    } catch (RuntimeException e) {
      throw AzureErrors.classify(what, key, e, write, containerName);
    }
  }

  private BlobClient blob(String key) {
    return container.getBlobClient(key);
  }

  /** The client of every write to {@code key}: under the encryption scope, when one is set. */
  private BlockBlobClient blockBlob(String key) {
    BlobClient blob = container.getBlobClient(key);
    return (encryptionScope == null ? blob : blob.getEncryptionScopeClient(encryptionScope)).getBlockBlobClient();
  }

  /** The access tier of a new blob at {@code key}, or null for the account's default. */
  private @Nullable AccessTier tier(String key) {
    return CloudStoreBuilder.isSegmentKey(key) ? segmentTier : null;
  }

  private static BlobHttpHeaders headers(String key) {
    return new BlobHttpHeaders().setContentType(key.endsWith(".json") ? JSON : OCTET_STREAM);
  }

  private static BlobRequestConditions ifNoneMatchAny() {
    return new BlobRequestConditions().setIfNoneMatch("*");
  }

  /** Tokens are ETags without quotes; the headers need them back. */
  static String quote(VersionToken token) {
    String v = token.value();
    return v.startsWith("\"") || v.startsWith("W/") ? v : "\"" + v + "\"";
  }

  static VersionToken token(@Nullable String etag) {
    if (etag == null || etag.isEmpty()) {
      throw new PermanentStoreException("the Azure response carried no ETag; objlog needs ETags for its version tokens");
    }
    String v = etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"") ? etag.substring(1, etag.length() - 1) : etag;
    return VersionToken.of(v);
  }

  private static Instant instant(@Nullable OffsetDateTime time) {
    return time == null ? Instant.EPOCH : time.toInstant();
  }

  private static void requireKey(String key) {
    Objects.requireNonNull(key, "key");
    if (key.isEmpty()) {
      throw new IllegalArgumentException("key must not be empty");
    }
  }

  private static @Nullable String emptyToNull(@Nullable String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  static String withoutQuery(String url) {
    int q = url.indexOf('?');
    return q < 0 ? url : url.substring(0, q);
  }

  private static ExecutorService newDeletePool(int threads) {
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            threads,
            threads,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, "objlog-azure-delete-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  private record ListCursor(String prefix, String afterKey) {}

  /**
   * Configuration of an {@link AzureBlobObjectStore}. Give exactly one way to reach the container:
   * an existing {@link BlobContainerClient}, an existing {@link BlobServiceClient} plus {@link
   * #containerName}, a {@link #connectionString} plus container name, or an {@link #endpoint}
   * (optionally with {@link #sharedKey}) plus container name. Clients passed in are used as they
   * are (their retry options included; set {@code maxTries} to 1 so that only this store retries)
   * and are never closed by the store. Clients the builder makes use the SDK's default HTTP client
   * (Netty), one try per request, and the retry policy's request timeout.
   *
   * <p>Thread-safety: not thread-safe; configure on one thread, then {@link #build()}.
   */
  public static final class Builder extends CloudStoreBuilder<Builder> {
    private @Nullable String containerName;
    private @Nullable BlobContainerClient containerClient;
    private @Nullable BlobServiceClient serviceClient;
    private @Nullable String connectionString;
    private @Nullable String endpoint;
    private @Nullable String accountName;
    private @Nullable String accountKey;
    private int blockSize = 8 * 1024 * 1024;
    private @Nullable String encryptionScope;
    private int deleteConcurrency = 16;
    private @Nullable ExecutorService deleteExecutor;

    private Builder() {}

    /** The container's name (required unless a container client is given). It must exist. */
    public Builder containerName(String containerName) {
      this.containerName = requireText(containerName, "containerName");
      return this;
    }

    /** Reuse this container client; the store never closes it. */
    public Builder containerClient(BlobContainerClient containerClient) {
      this.containerClient = Objects.requireNonNull(containerClient, "containerClient");
      return this;
    }

    /** Reuse this service client for {@link #containerName}; the store never closes it. */
    public Builder serviceClient(BlobServiceClient serviceClient) {
      this.serviceClient = Objects.requireNonNull(serviceClient, "serviceClient");
      return this;
    }

    /** Build a client from a storage connection string (never logged or shown). */
    public Builder connectionString(String connectionString) {
      this.connectionString = requireText(connectionString, "connectionString");
      return this;
    }

    /**
     * Build a client for this blob endpoint, e.g. {@code https://<account>.blob.core.windows.net}
     * or {@code http://127.0.0.1:10000/devstoreaccount1}. A SAS token may be part of the URL;
     * without one, also set {@link #sharedKey}.
     */
    public Builder endpoint(String endpoint) {
      this.endpoint = requireText(endpoint, "endpoint");
      return this;
    }

    /** Account name and key for {@link #endpoint} (the key is never logged or shown). */
    public Builder sharedKey(String accountName, String accountKey) {
      this.accountName = requireText(accountName, "accountName");
      this.accountKey = requireText(accountKey, "accountKey");
      return this;
    }

    /**
     * The size of staged blocks of streaming uploads, and the size below which an upload is one
     * Put Blob. Default 8 MiB; at most 50 000 blocks make one object.
     */
    public Builder blockSize(int blockSize) {
      if (blockSize < 1) {
        throw new IllegalArgumentException("blockSize must be positive, was " + blockSize);
      }
      this.blockSize = blockSize;
      return this;
    }

    /**
     * Every blob is written under this encryption scope (sent as {@code x-ms-encryption-scope} on
     * Put Blob, Put Block and Put Block List). The scope must exist in the storage account; a
     * container whose default scope is enforced accepts only that one. Default: the container's
     * default scope.
     */
    public Builder encryptionScope(String encryptionScope) {
      this.encryptionScope = requireText(encryptionScope, "encryptionScope").strip();
      return this;
    }

    /** Deletes in flight at once for one {@link #delete} call. Default 16. */
    public Builder deleteConcurrency(int deleteConcurrency) {
      if (deleteConcurrency < 1) {
        throw new IllegalArgumentException("deleteConcurrency must be positive, was " + deleteConcurrency);
      }
      this.deleteConcurrency = deleteConcurrency;
      return this;
    }

    /**
     * Run parallel deletes here (never shut down by the store). Default: a pool of {@link
     * #deleteConcurrency} daemon threads owned by the store, idle threads ending after 30 s.
     */
    public Builder deleteExecutor(ExecutorService deleteExecutor) {
      this.deleteExecutor = Objects.requireNonNull(deleteExecutor, "deleteExecutor");
      return this;
    }

    public AzureBlobObjectStore build() {
      int sources =
          (containerClient != null ? 1 : 0)
              + (serviceClient != null ? 1 : 0)
              + (connectionString != null ? 1 : 0)
              + (endpoint != null ? 1 : 0);
      if (sources != 1) {
        throw new IllegalArgumentException(
            "give exactly one of containerClient, serviceClient, connectionString or endpoint (got " + sources + ")");
      }
      if (accountName != null && endpoint == null) {
        throw new IllegalArgumentException("sharedKey needs an endpoint; a connection string carries its own key");
      }
      BlobContainerClient resolved;
      if (containerClient != null) {
        if (containerName != null && !containerName.equals(containerClient.getBlobContainerName())) {
          throw new IllegalArgumentException(
              "containerName " + containerName + " differs from the given client's container "
                  + containerClient.getBlobContainerName());
        }
        resolved = containerClient;
      } else {
        String name = Objects.requireNonNull(containerName, "containerName is required");
        BlobServiceClient service = serviceClient != null ? serviceClient : buildServiceClient();
        resolved = service.getBlobContainerClient(name);
      }
      return new AzureBlobObjectStore(this, resolved);
    }

    @Override
    protected void checkSegmentStorageClass(String name) {
      if (tierNamed(name) == null) {
        throw unknownStorageClass("Azure", name, "the access tiers Hot, Cool, Cold");
      }
    }

    private @Nullable AccessTier segmentTier() {
      String name = configuredSegmentStorageClass();
      return name == null ? null : tierNamed(name);
    }

    /** Hot, Cool or Cold, in any case; null for any other name (Archive needs a rehydration before a read). */
    private static @Nullable AccessTier tierNamed(String name) {
      for (AccessTier tier : List.of(AccessTier.HOT, AccessTier.COOL, AccessTier.COLD)) {
        if (tier.toString().equalsIgnoreCase(name)) {
          return tier;
        }
      }
      return null;
    }

    private BlobServiceClient buildServiceClient() {
      Duration perTry = configuredRetryPolicy().requestTimeout();
      HttpClient http =
          HttpClient.createDefault(
              new HttpClientOptions()
                  .setConnectTimeout(perTry.compareTo(Duration.ofSeconds(10)) < 0 ? perTry : Duration.ofSeconds(10))
                  .setWriteTimeout(perTry)
                  .setResponseTimeout(perTry)
                  .setReadTimeout(perTry));
      BlobServiceClientBuilder builder =
          new BlobServiceClientBuilder()
              .httpClient(http)
              // One try: the Retrier owns retries, so backoff, jitter and "maybe applied" are ours.
              .retryOptions(
                  new RequestRetryOptions(RetryPolicyType.FIXED, 1, wholeSeconds(perTry), (Duration) null, (Duration) null, null));
      if (connectionString != null) {
        try {
          return builder.connectionString(connectionString).buildClient();
        } catch (RuntimeException e) {
          // No cause: the SDK's message may quote the string, account key included.
          throw new IllegalArgumentException(
              "the Azure storage connection string is not valid (" + e.getClass().getSimpleName()
                  + "); expected e.g. DefaultEndpointsProtocol=https;AccountName=<name>;AccountKey=<key>;"
                  + "EndpointSuffix=core.windows.net, or one with BlobEndpoint=<url>");
        }
      }
      builder.endpoint(Objects.requireNonNull(endpoint));
      if (accountName != null && accountKey != null) {
        builder.credential(new StorageSharedKeyCredential(accountName, accountKey));
      }
      return builder.buildClient();
    }

    /**
     * The SDK counts its try timeout in whole seconds (at least one); it only backs up the HTTP
     * client's timeouts and the per-call timeout, which take the exact value.
     */
    private static Duration wholeSeconds(Duration d) {
      long seconds = d.getSeconds() + (d.getNano() > 0 ? 1 : 0);
      return Duration.ofSeconds(Math.max(1, seconds));
    }

    private static String requireText(String value, String name) {
      Objects.requireNonNull(value, name);
      if (value.isBlank()) {
        throw new IllegalArgumentException(name + " must not be blank");
      }
      return value;
    }

    @Override
    public String toString() {
      return "AzureBlobObjectStore.Builder[container=" + containerName + ", endpoint="
          + (endpoint == null ? null : withoutQuery(endpoint)) + ", account=" + accountName + ", key="
          + (accountKey == null ? "unset" : "***") + ", connectionString="
          + (connectionString == null ? "unset" : "***") + "]";
    }
  }
}
