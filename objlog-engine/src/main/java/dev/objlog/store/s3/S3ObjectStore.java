package dev.objlog.store.s3;

import dev.objlog.store.RequestRateLimiter;
import dev.objlog.store.CasResult;
import dev.objlog.store.AccessDeniedException;
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
import dev.objlog.store.RetryPolicy;
import dev.objlog.store.StoreException;
import dev.objlog.store.StoredObject;
import dev.objlog.store.TransientStoreException;
import dev.objlog.store.VersionToken;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Error;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.StorageClass;

/**
 * An {@link ObjectStore} on Amazon S3 or an S3-compatible server (MinIO and others), through the
 * AWS SDK for Java v2's synchronous {@link S3Client}.
 *
 * <p>Requests per SPI call: {@code get}, {@code head}, {@code getIfChanged} and {@code getRange}
 * make one request ({@code getRange} of zero bytes makes a HEAD); {@code putIfAbsent} one
 * conditional PUT; {@code compareAndSwap} one conditional PUT, plus one GET on conflict; an
 * upload of at most one part one conditional PUT, and of N parts one CreateMultipartUpload, N
 * UploadPart and one conditional CompleteMultipartUpload (plus one AbortMultipartUpload when the
 * key was taken); {@code list} one ListObjectsV2 per 1,000 entries; {@code delete} one
 * DeleteObjects per batch. Retries add tries of the same request.
 *
 * <p>Version tokens are ETags in their quoted form. A store built from an existing client never
 * closes that client; a store that built its own closes it in {@link #close()}.
 *
 * <p>Thread-safety: safe for concurrent use by many threads; the uploads it starts are not (one
 * producer each).
 */
public final class S3ObjectStore implements ObjectStore {

  /** S3's smallest part size for all parts but the last. */
  public static final int MIN_PART_SIZE = 5 * 1024 * 1024;

  /** The default part size of streaming uploads. */
  public static final int DEFAULT_PART_SIZE = 8 * 1024 * 1024;

  /** S3's limit on keys per DeleteObjects request. */
  public static final int MAX_DELETE_BATCH = 1000;

  private static final int MAX_LIST_PAGE = 1000;

  private final S3Client client;
  private final boolean ownsClient;
  private final String bucket;
  private final int partSize;
  private final int deleteBatchSize;
  private final Retrier retrier;
  private final RequestRateLimiter rateLimiter;
  private final AwsRequestOverrideConfiguration perRequest;
  private final @Nullable ServerSideEncryption sse;
  private final @Nullable String kmsKeyId;
  private final @Nullable StorageClass segmentClass;
  private final String description;

  private S3ObjectStore(Builder b, S3Client client, boolean ownsClient) {
    this.client = client;
    this.ownsClient = ownsClient;
    this.bucket = Objects.requireNonNull(b.bucket);
    this.partSize = b.partSize;
    this.deleteBatchSize = b.deleteBatchSize;
    this.retrier = b.newRetrier();
    this.rateLimiter = b.newRateLimiter();
    this.sse = b.sse;
    this.kmsKeyId = b.kmsKeyId;
    this.segmentClass = b.segmentClass();
    // Set on every request, so that the per-try bound also holds on a caller's client whose own
    // timeouts we cannot see; on such a client the SDK's retries happen inside this bound.
    this.perRequest =
        AwsRequestOverrideConfiguration.builder()
            .apiCallAttemptTimeout(b.configuredRetryPolicy().requestTimeout())
            .apiCallTimeout(b.configuredRetryPolicy().requestTimeout())
            .build();
    this.description = describe(client, bucket, ownsClient);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The bucket this store reads and writes. */
  public String bucket() {
    return bucket;
  }

  /** The part size of streaming uploads, in bytes. */
  public int partSize() {
    return partSize;
  }

  // --- reads -------------------------------------------------------------------------------

  @Override
  public StoredObject get(String key) {
    requireKey(key);
    ResponseBytes<GetObjectResponse> response =
        read(
            "GET",
            key,
            () ->
                client.getObjectAsBytes(
                    GetObjectRequest.builder().bucket(bucket).key(key).overrideConfiguration(perRequest).build()));
    return stored(key, response);
  }

  @Override
  public byte[] getRange(String key, long offset, int length) {
    requireKey(key);
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("offset and length must not be negative: " + offset + ", " + length);
    }
    if (length == 0) {
      // S3 has no empty range; a HEAD still tells a missing key apart.
      if (head(key).isEmpty()) {
        throw new ObjectNotFoundException("GET " + S3Errors.location(bucket, key) + ": no such object");
      }
      return new byte[0];
    }
    long last = offset + length - 1;
    String range = "bytes=" + offset + "-" + last;
    Optional<ResponseBytes<GetObjectResponse>> response =
        retrier.read(
            "GET " + range + " " + S3Errors.location(bucket, key),
            () -> {
              acquirePermit();
              try {
                return Optional.of(
                    client.getObjectAsBytes(
                        GetObjectRequest.builder()
                            .bucket(bucket)
                            .key(key)
                            .range(range)
                            .overrideConfiguration(perRequest)
                            .build()));
              } catch (SdkServiceException e) {
                if (e.statusCode() == 416 || S3Errors.hasCode(e, "InvalidRange")) {
                  return Optional.empty();
                }
                throw S3Errors.classify(e, "GET " + range, bucket, key, false, false);
              } catch (SdkException e) {
                throw S3Errors.classify(e, "GET " + range, bucket, key, false, false);
              }
            });
    if (response.isEmpty()) {
      return new byte[0];
    }
    byte[] body = response.get().asByteArrayUnsafe();
    if (response.get().response().contentRange() == null) {
      // A server that ignores Range sends the whole object; cut the range out ourselves.
      if (offset >= body.length) {
        return new byte[0];
      }
      int end = (int) Math.min(body.length, offset + length);
      return java.util.Arrays.copyOfRange(body, (int) offset, end);
    }
    return body.length <= length ? body : java.util.Arrays.copyOf(body, length);
  }

  @Override
  public Optional<ObjectMetadata> head(String key) {
    requireKey(key);
    return retrier.read(
        "HEAD " + S3Errors.location(bucket, key),
        () -> {
          acquirePermit();
          try {
            HeadObjectResponse r =
                client.headObject(b -> b.bucket(bucket).key(key).overrideConfiguration(perRequest));
            return Optional.of(
                new ObjectMetadata(
                    key, sizeOf(r.contentLength()), ETags.token(r.eTag(), "HEAD " + key), time(r.lastModified())));
          } catch (SdkException e) {
            StoreException classified = S3Errors.classify(e, "HEAD", bucket, key, false, false);
            if (classified instanceof ObjectNotFoundException) {
              return Optional.empty();
            }
            throw classified;
          }
        });
  }

  @Override
  public ConditionalGetResult getIfChanged(String key, VersionToken known) {
    requireKey(key);
    Objects.requireNonNull(known, "known");
    return retrier.read(
        "conditional GET " + S3Errors.location(bucket, key),
        () -> {
          acquirePermit();
          GetObjectRequest.Builder request =
              GetObjectRequest.builder().bucket(bucket).key(key).overrideConfiguration(perRequest);
          if (!known.isAbsent()) {
            request.ifNoneMatch(ETags.header(known));
          }
          ResponseBytes<GetObjectResponse> response;
          try {
            response = client.getObjectAsBytes(request.build());
          } catch (SdkServiceException e) {
            if (e.statusCode() == 304) {
              return new ConditionalGetResult.Unchanged();
            }
            StoreException classified = S3Errors.classify(e, "conditional GET", bucket, key, false, false);
            if (classified instanceof ObjectNotFoundException) {
              return new ConditionalGetResult.Missing();
            }
            throw classified;
          } catch (SdkException e) {
            throw S3Errors.classify(e, "conditional GET", bucket, key, false, false);
          }
          StoredObject object = stored(key, response);
          // A server that ignores If-None-Match answers 200 with the same version.
          if (!known.isAbsent() && object.token().equals(ETags.token(known.value(), key))) {
            return new ConditionalGetResult.Unchanged();
          }
          return new ConditionalGetResult.Changed(object);
        });
  }

  // --- writes ------------------------------------------------------------------------------

  @Override
  public CreateResult putIfAbsent(String key, byte[] bytes) {
    requireKey(key);
    Objects.requireNonNull(bytes, "bytes");
    Optional<VersionToken> token = conditionalPut("create-only PUT", key, bytes, VersionToken.ABSENT);
    return token.<CreateResult>map(CreateResult.Created::new).orElseGet(CreateResult.AlreadyExists::new);
  }

  @Override
  public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) {
    requireKey(key);
    Objects.requireNonNull(expected, "expected");
    Objects.requireNonNull(bytes, "bytes");
    Optional<VersionToken> token = conditionalPut("compare-and-swap PUT", key, bytes, expected);
    if (token.isPresent()) {
      return new CasResult.Swapped(token.get());
    }
    try {
      return new CasResult.Conflict(get(key));
    } catch (ObjectNotFoundException gone) {
      return new CasResult.Conflict(null);
    }
  }

  /** One conditional PUT; empty when the condition did not hold (412, 409, or 404 for If-Match). */
  private Optional<VersionToken> conditionalPut(String what, String key, byte[] bytes, VersionToken expected) {
    PutObjectRequest.Builder request =
        PutObjectRequest.builder()
            .bucket(bucket)
            .key(key)
            .contentType(contentType(key))
            .contentLength((long) bytes.length)
            .overrideConfiguration(perRequest);
    if (sse != null) {
      request.serverSideEncryption(sse).ssekmsKeyId(kmsKeyId);
    }
    if (segmentClass != null && CloudStoreBuilder.isSegmentKey(key)) {
      request.storageClass(segmentClass);
    }
    if (expected.isAbsent()) {
      request.ifNoneMatch("*");
    } else {
      request.ifMatch(ETags.header(expected));
    }
    PutObjectRequest built = request.build();
    return retrier.write(
        what + " " + S3Errors.location(bucket, key),
        () -> {
          acquirePermit();
          try {
            var response = client.putObject(built, body(bytes, bytes.length, key));
            return Optional.of(ETags.token(response.eTag(), what + " " + key));
          } catch (SdkException e) {
            StoreException classified = S3Errors.classify(e, what, bucket, key, true, true);
            if (classified instanceof PreconditionFailedException
                || classified instanceof ObjectNotFoundException) {
              return Optional.empty();
            }
            throw classified;
          }
        });
  }

  @Override
  public ObjectUpload startUpload(String key) {
    requireKey(key);
    return new S3Upload(this, key);
  }

  // --- listing and deletes -----------------------------------------------------------------

  @Override
  public ListPage list(String prefix, String afterKey, int limit) {
    Objects.requireNonNull(prefix, "prefix");
    Objects.requireNonNull(afterKey, "afterKey");
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, was " + limit);
    }
    List<ObjectMetadata> entries = new ArrayList<>();
    String continuation = null;
    boolean more;
    do {
      String token = continuation;
      int want = Math.min(MAX_LIST_PAGE, limit - entries.size());
      ListObjectsV2Request.Builder request =
          ListObjectsV2Request.builder().bucket(bucket).prefix(prefix).maxKeys(want).overrideConfiguration(perRequest);
      if (token != null) {
        request.continuationToken(token);
      } else if (!afterKey.isEmpty()) {
        request.startAfter(afterKey);
      }
      ListObjectsV2Request built = request.build();
      ListObjectsV2Response response = read("LIST " + prefix, "", () -> client.listObjectsV2(built));
      for (S3Object o : response.contents()) {
        if (entries.size() < limit) {
          entries.add(
              new ObjectMetadata(o.key(), sizeOf(o.size()), ETags.token(o.eTag(), "LIST " + o.key()), time(o.lastModified())));
        }
      }
      more = Boolean.TRUE.equals(response.isTruncated()) && response.nextContinuationToken() != null;
      continuation = response.nextContinuationToken();
    } while (more && entries.size() < limit);
    String next = more && !entries.isEmpty() ? entries.get(entries.size() - 1).key() : null;
    return new ListPage(entries, next);
  }

  @Override
  public void delete(Collection<String> keys) {
    Objects.requireNonNull(keys, "keys");
    List<String> unique = new ArrayList<>(new LinkedHashSet<>(keys));
    for (int from = 0; from < unique.size(); from += deleteBatchSize) {
      List<String> batch = unique.subList(from, Math.min(unique.size(), from + deleteBatchSize));
      batch.forEach(S3ObjectStore::requireKey);
      deleteBatch(batch);
    }
  }

  private void deleteBatch(List<String> batch) {
    List<ObjectIdentifier> ids = batch.stream().map(k -> ObjectIdentifier.builder().key(k).build()).toList();
    String what = "DELETE " + batch.size() + " keys";
    retrier.read(
        what + " in " + S3Errors.location(bucket, ""),
        () -> {
          acquirePermit();
          DeleteObjectsResponse response;
          try {
            response =
                client.deleteObjects(
                    b -> b.bucket(bucket)
                        .delete(Delete.builder().objects(ids).quiet(true).build())
                        .overrideConfiguration(perRequest));
          } catch (SdkException e) {
            throw S3Errors.classify(e, what, bucket, "", true, false);
          }
          failOnKeyErrors(response.errors());
          return null;
        });
  }

  /** Deletes are idempotent, so a key that failed transiently makes the whole batch retry. */
  private void failOnKeyErrors(List<S3Error> errors) {
    StoreException first = null;
    int failed = 0;
    for (S3Error error : errors) {
      String code = error.code() == null ? "" : error.code();
      if (code.equals("NoSuchKey")) {
        continue;
      }
      failed++;
      if (first == null) {
        first = perKeyError(error.key() == null ? "" : error.key(), code, error.message());
      }
    }
    if (first == null) {
      return;
    }
    String suffix = failed > 1 ? " (and " + (failed - 1) + " more keys)" : "";
    if (first instanceof AccessDeniedException denied) {
      throw new AccessDeniedException(
          denied.getMessage() + suffix, denied.operation(), denied.key(), denied.permission(), denied);
    }
    if (first instanceof TransientStoreException) {
      throw new TransientStoreException(first.getMessage() + suffix, false, first);
    }
    throw new PermanentStoreException(first.getMessage() + suffix, first);
  }

  private StoreException perKeyError(String key, String code, @Nullable String message) {
    int status = switch (code) {
      case "AccessDenied" -> 403;
      case "InternalError" -> 500;
      case "SlowDown", "ServiceUnavailable" -> 503;
      default -> 400;
    };
    var details = software.amazon.awssdk.awscore.exception.AwsErrorDetails.builder()
        .errorCode(code)
        .errorMessage(message == null ? "" : message)
        .build();
    var e = software.amazon.awssdk.services.s3.model.S3Exception.builder()
        .statusCode(status)
        .awsErrorDetails(details)
        .message(code)
        .build();
    return S3Errors.classify(e, "DELETE", bucket, key, true, false);
  }

  @Override
  public String describe() {
    return description;
  }

  @Override
  public String toString() {
    return description;
  }

  @Override
  public void close() {
    if (ownsClient) {
      client.close();
    }
  }

  // --- shared with S3Upload ----------------------------------------------------------------

  S3Client client() {
    return client;
  }

  Retrier retrier() {
    return retrier;
  }

  AwsRequestOverrideConfiguration perRequest() {
    return perRequest;
  }

  /** The encryption and storage class every object write of {@code key} carries, on a multipart start. */
  void writeSettings(String key, CreateMultipartUploadRequest.Builder request) {
    if (sse != null) {
      request.serverSideEncryption(sse).ssekmsKeyId(kmsKeyId);
    }
    if (segmentClass != null && CloudStoreBuilder.isSegmentKey(key)) {
      request.storageClass(segmentClass);
    }
  }

  void acquirePermit() {
    rateLimiter.acquire();
  }

  /** A body the SDK can re-read without copying the caller's array. */
  static RequestBody body(byte[] bytes, int length, String key) {
    return RequestBody.fromContentProvider(() -> new ByteArrayInputStream(bytes, 0, length), length, contentType(key));
  }

  static String contentType(String key) {
    return key.endsWith(".json") ? "application/json" : "application/octet-stream";
  }

  /** A read-only request with retries, whose SDK failures are classified for {@code key}. */
  private <T> T read(String operation, String key, Supplier<T> request) {
    return retrier.read(
        operation + " " + S3Errors.location(bucket, key),
        () -> {
          acquirePermit();
          try {
            return request.get();
          } catch (SdkException e) {
            throw S3Errors.classify(e, operation, bucket, key, false, false);
          }
        });
  }

  private StoredObject stored(String key, ResponseBytes<GetObjectResponse> response) {
    byte[] bytes = response.asByteArrayUnsafe();
    GetObjectResponse r = response.response();
    return new StoredObject(
        new ObjectMetadata(key, bytes.length, ETags.token(r.eTag(), "GET " + key), time(r.lastModified())), bytes);
  }

  private static long sizeOf(@Nullable Long size) {
    return size == null ? 0 : size;
  }

  private static Instant time(@Nullable Instant lastModified) {
    return lastModified == null ? Instant.EPOCH : lastModified;
  }

  private static void requireKey(String key) {
    Objects.requireNonNull(key, "key");
    if (key.isEmpty()) {
      throw new IllegalArgumentException("object keys must not be empty");
    }
  }

  private static String describe(S3Client client, String bucket, boolean ownsClient) {
    StringBuilder b = new StringBuilder("S3 bucket '").append(bucket).append("'");
    try {
      var config = client.serviceClientConfiguration();
      Optional<URI> endpoint = config.endpointOverride();
      b.append(" (");
      endpoint.ifPresent(uri -> b.append("endpoint ").append(withoutUserInfo(uri)).append(", "));
      b.append("region ").append(config.region());
      if (!ownsClient) {
        b.append(", caller's client");
      }
      b.append(')');
    } catch (RuntimeException e) {
      b.append(ownsClient ? "" : " (caller's client)");
    }
    return b.toString();
  }

  private static String withoutUserInfo(URI uri) {
    return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() >= 0 ? ":" + uri.getPort() : "") + uri.getPath();
  }

  /**
   * Configuration of an {@link S3ObjectStore}. Either pass an existing {@link S3Client} (the store
   * will not close it, and it keeps whatever retries, timeouts and HTTP client it was built with)
   * or let the store build one from region, endpoint, path-style and credentials (the store then
   * turns the SDK's own retries off, so that its {@link RetryPolicy} is the only retry loop, and
   * closes the client with itself).
   *
   * <p>Thread-safety: not thread-safe; configure on one thread, then call {@link #build()}.
   */
  public static final class Builder extends CloudStoreBuilder<Builder> {
    private @Nullable String bucket;
    private @Nullable S3Client client;
    private @Nullable Region region;
    private @Nullable URI endpoint;
    private boolean pathStyle;
    private @Nullable AwsCredentialsProvider credentials;
    private int partSize = DEFAULT_PART_SIZE;
    private @Nullable ServerSideEncryption sse;
    private @Nullable String kmsKeyId;
    private int deleteBatchSize = MAX_DELETE_BATCH;

    private Builder() {}

    /** The bucket (required). Keys are used as given; prefixes are the caller's business. */
    public Builder bucket(String bucket) {
      this.bucket = Objects.requireNonNull(bucket, "bucket");
      return this;
    }

    /** Reuses a client the caller owns; region, endpoint, path-style and credentials are then ignored. */
    public Builder client(S3Client client) {
      this.client = Objects.requireNonNull(client, "client");
      return this;
    }

    /** The region to sign for; defaults to the SDK's region chain, or us-east-1 with an endpoint. */
    public Builder region(String region) {
      this.region = Region.of(Objects.requireNonNull(region, "region"));
      return this;
    }

    /** An S3-compatible endpoint such as {@code http://minio:9000}. */
    public Builder endpoint(URI endpoint) {
      this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
      return this;
    }

    /** Path-style addressing ({@code endpoint/bucket/key}), which MinIO and most gateways need. */
    public Builder pathStyle(boolean pathStyle) {
      this.pathStyle = pathStyle;
      return this;
    }

    /** Credentials; defaults to the SDK's default chain (environment, profile, instance role). */
    public Builder credentials(AwsCredentialsProvider credentials) {
      this.credentials = Objects.requireNonNull(credentials, "credentials");
      return this;
    }

    /** Static credentials, e.g. MinIO's access and secret key. */
    public Builder credentials(String accessKeyId, String secretAccessKey) {
      return credentials(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKeyId, secretAccessKey)));
    }

    /** Part size of streaming uploads: at least 5 MiB (S3's minimum), default 8 MiB. */
    public Builder partSize(int bytes) {
      if (bytes < MIN_PART_SIZE) {
        throw new IllegalArgumentException("part size must be at least 5 MiB (S3's minimum), was " + bytes);
      }
      this.partSize = bytes;
      return this;
    }

    /** SSE-S3: S3 encrypts every object with keys it manages ({@code x-amz-server-side-encryption: AES256}). */
    public Builder sseS3() {
      this.sse = ServerSideEncryption.AES256;
      this.kmsKeyId = null;
      return this;
    }

    /**
     * SSE-KMS: S3 encrypts every object under this KMS key ({@code aws:kms} with {@code
     * x-amz-server-side-encryption-aws-kms-key-id}), given as key id, key ARN or alias ARN; null
     * for the account's AWS-managed {@code aws/s3} key. Writers need {@code kms:GenerateDataKey}
     * and readers {@code kms:Decrypt} on the key (docs/stores/s3.md).
     */
    public Builder sseKms(@Nullable String keyId) {
      if (keyId != null && keyId.isBlank()) {
        throw new IllegalArgumentException("a KMS key id must not be blank; pass null for the AWS-managed key");
      }
      this.sse = ServerSideEncryption.AWS_KMS;
      this.kmsKeyId = keyId == null ? null : keyId.strip();
      return this;
    }

    /** Keys per DeleteObjects request, 1 to 1,000 (the default). */
    public Builder deleteBatchSize(int keys) {
      if (keys < 1 || keys > MAX_DELETE_BATCH) {
        throw new IllegalArgumentException("delete batch size must be within 1..1000, was " + keys);
      }
      this.deleteBatchSize = keys;
      return this;
    }

    /**
     * Builds the store (and its client, when none was given).
     *
     * @throws PermanentStoreException when the SDK cannot build a client from this configuration
     */
    public S3ObjectStore build() {
      if (bucket == null || bucket.isBlank()) {
        throw new IllegalArgumentException("an S3 store needs a bucket");
      }
      if (client != null) {
        return new S3ObjectStore(this, client, false);
      }
      RetryPolicy retryPolicy = configuredRetryPolicy();
      S3ClientBuilder sdk =
          S3Client.builder()
              .forcePathStyle(pathStyle)
              .overrideConfiguration(
                  o -> o.retryStrategy(AwsRetryStrategy.doNotRetry())
                      .apiCallAttemptTimeout(retryPolicy.requestTimeout())
                      .apiCallTimeout(retryPolicy.requestTimeout()));
      if (endpoint != null) {
        sdk.endpointOverride(endpoint);
      }
      if (region != null) {
        sdk.region(region);
      } else if (endpoint != null) {
        // S3-compatible servers rarely care about the region, but SigV4 needs one.
        sdk.region(Region.US_EAST_1);
      }
      if (credentials != null) {
        sdk.credentialsProvider(credentials);
      }
      S3Client built;
      try {
        built = sdk.build();
      } catch (SdkException e) {
        throw new PermanentStoreException(
            "cannot build an S3 client for bucket '" + bucket + "': " + e.getMessage()
                + ". Set the region (builder region(...) or AWS_REGION) and credentials",
            e);
      }
      return new S3ObjectStore(this, built, true);
    }

    @Override
    protected void checkSegmentStorageClass(String name) {
      StorageClass parsed = storageClass(name);
      if (parsed == StorageClass.UNKNOWN_TO_SDK_VERSION || NEEDS_RESTORE.contains(parsed)) {
        throw unknownStorageClass("S3", name, READABLE_CLASSES);
      }
    }

    private @Nullable StorageClass segmentClass() {
      String name = configuredSegmentStorageClass();
      return name == null ? null : storageClass(name);
    }

    private static StorageClass storageClass(String name) {
      return StorageClass.fromValue(name.toUpperCase(java.util.Locale.ROOT));
    }
  }

  /** Classes whose objects a GET cannot read until they are restored. */
  private static final java.util.Set<StorageClass> NEEDS_RESTORE =
      java.util.EnumSet.of(StorageClass.GLACIER, StorageClass.DEEP_ARCHIVE);

  private static final String READABLE_CLASSES =
      "STANDARD, STANDARD_IA, ONEZONE_IA, INTELLIGENT_TIERING, GLACIER_IR, REDUCED_REDUNDANCY, EXPRESS_ONEZONE";
}
