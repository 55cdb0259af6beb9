package dev.objlog.spring.autoconfigure;

import dev.objlog.InvalidArgumentException;
import dev.objlog.MemoryBudget;
import dev.objlog.WriterOptions;
import dev.objlog.spring.core.WriterLeaseSettings;
import dev.objlog.format.key.StreamIds;
import dev.objlog.read.ReaderOptions;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.io.Resource;
import org.springframework.util.unit.DataSize;

/**
 * The {@code objlog.*} properties: which object store holds the log, and the streams an
 * application uses, each under its configured name.
 *
 * <p>The properties are checked as soon as they are bound ({@link #afterPropertiesSet()}): stream
 * names, stream ids, partition counts and sizes that can never work fail startup with an {@link
 * ObjlogConfigurationException} naming the property. Settings a store type requires (a bucket for
 * {@code s3}, a container for {@code azure}) are checked when that store is built, so that an
 * application supplying its own {@code ObjectStore} bean need not set them.
 *
 * <p>Thread-safety: a mutable binding target; Spring binds it on one thread during startup, after
 * which it is only read.
 */
@ConfigurationProperties("objlog")
public class ObjlogProperties implements InitializingBean {

  /** Longest stream name: names appear in URLs, metric tags and bean names. */
  public static final int MAX_STREAM_NAME_LENGTH = 64;

  /**
   * Most partitions one configured stream may have. A safety bound of this integration (each
   * partition has its own catalog head to poll and writer to fence), not a limit of the format.
   */
  public static final int MAX_PARTITIONS = 4096;

  /** The object store that holds every configured stream. */
  private final Store store = new Store();

  /**
   * The streams this application uses, by name. The name is how properties, the Spring API,
   * metrics and actuator URLs refer to a stream; the stream id is what the bucket stores. Names are
   * 1 to 64 letters, digits, '-' or '_'.
   */
  private final Map<String, Stream> streams = new LinkedHashMap<>();

  /**
   * Streams used by name without being listed under objlog.streams: whether they are opened, and
   * the settings they get.
   */
  private final Defaults defaults = new Defaults();

  /** The readers objlog opens for the configured streams (one shared reader per stream). */
  private final Reader reader = new Reader();

  /** What the objlog health indicator reports. */
  private final Health health = new Health();

  /** The one memory budget every stream of this application draws from. */
  private final Memory memory = new Memory();

  /** The auto-configured ObjlogTemplate. */
  private final Template template = new Template();

  public Store getStore() {
    return store;
  }

  public Map<String, Stream> getStreams() {
    return streams;
  }

  public Reader getReader() {
    return reader;
  }

  public Defaults getDefaults() {
    return defaults;
  }

  public Health getHealth() {
    return health;
  }

  public Memory getMemory() {
    return memory;
  }

  public Template getTemplate() {
    return template;
  }

  /**
   * The canonical stream id of the stream configured under {@code objlog.streams.<name>}: its
   * {@code stream-id}, or the name when none is set; with {@code objlog.defaults.auto-create}, an
   * unconfigured name is the id of the stream it opens.
   *
   * @throws IllegalArgumentException when no stream has that name (and auto-creation is off)
   * @throws dev.objlog.InvalidArgumentException when the id is not a valid stream id
   */
  public String streamId(String name) {
    Stream stream = streams.get(name);
    if (stream == null && defaults.isAutoCreate()) {
      return StreamIds.canonical(name);
    }
    if (stream == null) {
      throw new IllegalArgumentException(
          "no stream is configured under objlog.streams." + name + "; configured: " + streams.keySet());
    }
    String id = stream.getStreamId();
    return StreamIds.canonical(id == null || id.isEmpty() ? name : id);
  }

  /**
   * Checks what can be checked without a store: stream names, stream ids (canonical, unique
   * across names), partition counts, and provider sizes.
   *
   * @throws ObjlogConfigurationException naming the first property to change
   */
  @Override
  public void afterPropertiesSet() {
    ObjlogPropertiesChecks.check(this);
  }

  /** Kinds of object store. */
  public enum StoreType {
    /** A local directory (the embedded default): atomic and safe across processes on one machine. */
    FILESYSTEM,
    /** In memory, lost when the application stops: for tests. */
    MEMORY,
    /** Amazon S3 or an S3-compatible server such as MinIO (needs software.amazon.awssdk:s3). */
    S3,
    /** Google Cloud Storage (needs com.google.cloud:google-cloud-storage). */
    GCS,
    /** Azure Blob Storage (needs com.azure:azure-storage-blob). */
    AZURE
  }

  /** Server-side encryption of the s3 store. */
  public enum S3Encryption {
    /** No encryption header: the bucket's default encryption applies. */
    NONE,
    /** SSE-S3: keys managed by S3 (AES256). */
    SSE_S3,
    /** SSE-KMS: a key in AWS KMS (objlog.store.s3.kms-key-id, or the AWS-managed aws/s3 key). */
    SSE_KMS
  }

  /** Where the log lives. */
  public static class Store {

    /**
     * Kind of object store: filesystem, memory, s3, gcs or azure. Unset: filesystem when neither
     * bucket nor container is set; otherwise the one provider whose SDK is on the classpath (s3 or
     * gcs for a bucket, azure for a container), and startup fails when there is none or several.
     */
    private @Nullable StoreType type;

    /** Bucket that holds the log, for the s3 and gcs store types. It must exist. */
    private @Nullable String bucket;

    /** Blob container that holds the log, for the azure store type. It must exist. */
    private @Nullable String container;

    /**
     * Key prefix under which objlog keeps all its objects in the bucket; an empty prefix means
     * "objlog". Processes (Java or Go) sharing a log must use the same bucket and prefix.
     */
    private String prefix = "objlog";

    /**
     * Whether to prove at startup, on a scratch key under the prefix, that the store honours
     * create-only and compare-and-swap writes. A store that silently ignores write conditions
     * would let two writers both win, so startup fails when it does.
     */
    private boolean verifyConditionalWrites = true;

    /**
     * Whether to check at startup, with one listing under the prefix, that the bucket or container
     * exists, and fail with what to create when it does not. Independent of
     * verify-conditional-writes.
     */
    private boolean verifyBucket = true;

    /**
     * Storage class of segment objects (s3, gcs and azure), in the provider's own words: for
     * example STANDARD_IA or INTELLIGENT_TIERING (s3), NEARLINE (gcs), Cool (azure access tier).
     * Catalog and head objects keep the bucket's default. Unset: the bucket's default. Classes
     * whose objects need a restore before a read (S3 GLACIER and DEEP_ARCHIVE, Azure Archive) are
     * refused at startup.
     */
    private @Nullable String segmentStorageClass;

    /** Settings of the filesystem store. */
    private final Filesystem filesystem = new Filesystem();

    /** Settings of the s3 store. */
    private final S3 s3 = new S3();

    /** Settings of the gcs store. */
    private final Gcs gcs = new Gcs();

    /** Settings of the azure store. */
    private final Azure azure = new Azure();

    public @Nullable StoreType getType() {
      return type;
    }

    public void setType(@Nullable StoreType type) {
      this.type = type;
    }

    public @Nullable String getBucket() {
      return bucket;
    }

    public void setBucket(@Nullable String bucket) {
      this.bucket = bucket;
    }

    public @Nullable String getContainer() {
      return container;
    }

    public void setContainer(@Nullable String container) {
      this.container = container;
    }

    public String getPrefix() {
      return prefix;
    }

    public void setPrefix(String prefix) {
      this.prefix = prefix;
    }

    public boolean isVerifyConditionalWrites() {
      return verifyConditionalWrites;
    }

    public void setVerifyConditionalWrites(boolean verifyConditionalWrites) {
      this.verifyConditionalWrites = verifyConditionalWrites;
    }

    public boolean isVerifyBucket() {
      return verifyBucket;
    }

    public void setVerifyBucket(boolean verifyBucket) {
      this.verifyBucket = verifyBucket;
    }

    public @Nullable String getSegmentStorageClass() {
      return segmentStorageClass;
    }

    public void setSegmentStorageClass(@Nullable String segmentStorageClass) {
      this.segmentStorageClass = segmentStorageClass;
    }

    public Filesystem getFilesystem() {
      return filesystem;
    }

    public S3 getS3() {
      return s3;
    }

    public Gcs getGcs() {
      return gcs;
    }

    public Azure getAzure() {
      return azure;
    }
  }

  /** The filesystem store: a local directory is the bucket. */
  public static class Filesystem {

    /**
     * Directory that serves as the bucket, created when missing. Relative paths resolve against
     * the working directory. Every process sharing the log must see the same directory.
     */
    private String root = "./objlog-data";

    public String getRoot() {
      return root;
    }

    public void setRoot(String root) {
      this.root = root;
    }
  }

  /**
   * The s3 store. When none of endpoint, region and access-key is set and the application has one
   * S3Client bean, that client is reused (and never closed by objlog); otherwise objlog builds its
   * own client from these settings and the AWS SDK's default chains.
   */
  public static class S3 {

    /**
     * Endpoint of an S3-compatible server, such as http://localhost:9000 for MinIO. Unset for
     * Amazon S3.
     */
    private @Nullable URI endpoint;

    /**
     * Region to sign requests for. Unset: the AWS SDK's region chain (AWS_REGION, profile), or
     * us-east-1 when an endpoint is set.
     */
    private @Nullable String region;

    /**
     * Whether to address the bucket in the path (endpoint/bucket/key) instead of the host name.
     * MinIO and most S3-compatible gateways need it.
     */
    private boolean pathStyle;

    /**
     * Access key id of static credentials; set together with secret-key. Unset: the AWS SDK's
     * default credentials chain (environment, profile, instance or pod role).
     */
    private @Nullable String accessKey;

    /** Secret access key of static credentials; set together with access-key. Never logged. */
    private @Nullable String secretKey;

    /** Part size of multipart uploads of large segments; at least 5MB, S3's minimum. */
    private DataSize partSize = DataSize.ofMegabytes(8);

    /**
     * Server-side encryption requested on every object write: none (the bucket's default
     * encryption applies), sse-s3 (S3-managed keys, AES256) or sse-kms (a KMS key, see
     * kms-key-id).
     */
    private S3Encryption serverSideEncryption = S3Encryption.NONE;

    /**
     * KMS key of sse-kms: key id, key ARN or alias ARN. Unset with sse-kms: the account's
     * AWS-managed aws/s3 key. Only valid with server-side-encryption=sse-kms.
     */
    private @Nullable String kmsKeyId;

    public S3Encryption getServerSideEncryption() {
      return serverSideEncryption;
    }

    public void setServerSideEncryption(S3Encryption serverSideEncryption) {
      this.serverSideEncryption = serverSideEncryption;
    }

    public @Nullable String getKmsKeyId() {
      return kmsKeyId;
    }

    public void setKmsKeyId(@Nullable String kmsKeyId) {
      this.kmsKeyId = kmsKeyId;
    }

    public @Nullable URI getEndpoint() {
      return endpoint;
    }

    public void setEndpoint(@Nullable URI endpoint) {
      this.endpoint = endpoint;
    }

    public @Nullable String getRegion() {
      return region;
    }

    public void setRegion(@Nullable String region) {
      this.region = region;
    }

    public boolean isPathStyle() {
      return pathStyle;
    }

    public void setPathStyle(boolean pathStyle) {
      this.pathStyle = pathStyle;
    }

    public @Nullable String getAccessKey() {
      return accessKey;
    }

    public void setAccessKey(@Nullable String accessKey) {
      this.accessKey = accessKey;
    }

    public @Nullable String getSecretKey() {
      return secretKey;
    }

    public void setSecretKey(@Nullable String secretKey) {
      this.secretKey = secretKey;
    }

    public DataSize getPartSize() {
      return partSize;
    }

    public void setPartSize(DataSize partSize) {
      this.partSize = partSize;
    }
  }

  /**
   * The gcs store. When none of project-id, host and credentials-location is set and the
   * application has one Storage bean, that client is reused (and never closed by objlog);
   * otherwise objlog builds its own client from these settings and application default
   * credentials.
   */
  public static class Gcs {

    /** Project of the client objlog builds. Unset: the project of the environment. */
    private @Nullable String projectId;

    /**
     * Endpoint of the client objlog builds, such as http://localhost:4443 for an emulator. Unset:
     * the public Cloud Storage API.
     */
    private @Nullable String host;

    /**
     * Location of a service-account JSON key, such as file:/etc/objlog/key.json. Unset:
     * application default credentials.
     */
    private @Nullable Resource credentialsLocation;

    /**
     * Bytes per request of resumable uploads of large segments; a multiple of 256KB. Smaller
     * objects are sent in one request.
     */
    private DataSize uploadChunkSize = DataSize.ofMegabytes(8);

    /**
     * Cloud KMS key that encrypts every object objlog writes (customer-managed encryption), as
     * projects/P/locations/L/keyRings/R/cryptoKeys/K. Unset: the bucket's default key.
     */
    private @Nullable String kmsKeyName;

    public @Nullable String getKmsKeyName() {
      return kmsKeyName;
    }

    public void setKmsKeyName(@Nullable String kmsKeyName) {
      this.kmsKeyName = kmsKeyName;
    }

    public @Nullable String getProjectId() {
      return projectId;
    }

    public void setProjectId(@Nullable String projectId) {
      this.projectId = projectId;
    }

    public @Nullable String getHost() {
      return host;
    }

    public void setHost(@Nullable String host) {
      this.host = host;
    }

    public @Nullable Resource getCredentialsLocation() {
      return credentialsLocation;
    }

    public void setCredentialsLocation(@Nullable Resource credentialsLocation) {
      this.credentialsLocation = credentialsLocation;
    }

    public DataSize getUploadChunkSize() {
      return uploadChunkSize;
    }

    public void setUploadChunkSize(DataSize uploadChunkSize) {
      this.uploadChunkSize = uploadChunkSize;
    }
  }

  /**
   * The azure store. Set either connection-string or endpoint (with account-name and account-key
   * unless the endpoint carries a SAS token); with neither, the application's one BlobServiceClient
   * bean is reused (and never closed by objlog).
   */
  public static class Azure {

    /**
     * Blob service endpoint, such as https://myaccount.blob.core.windows.net or
     * http://127.0.0.1:10000/devstoreaccount1 for Azurite. May carry a SAS token.
     */
    private @Nullable String endpoint;

    /** Storage account name of shared-key credentials for the endpoint. */
    private @Nullable String accountName;

    /** Storage account key of shared-key credentials for the endpoint. Never logged. */
    private @Nullable String accountKey;

    /** Storage connection string, as an alternative to endpoint and shared key. Never logged. */
    private @Nullable String connectionString;

    /**
     * Size of the staged blocks of large segment uploads; smaller objects are sent in one
     * request. From 1B to 2047MB.
     */
    private DataSize blockSize = DataSize.ofMegabytes(8);

    /**
     * Encryption scope every blob is written under; it must exist in the storage account. Unset:
     * the container's default scope.
     */
    private @Nullable String encryptionScope;

    public @Nullable String getEncryptionScope() {
      return encryptionScope;
    }

    public void setEncryptionScope(@Nullable String encryptionScope) {
      this.encryptionScope = encryptionScope;
    }

    public @Nullable String getEndpoint() {
      return endpoint;
    }

    public void setEndpoint(@Nullable String endpoint) {
      this.endpoint = endpoint;
    }

    public @Nullable String getAccountName() {
      return accountName;
    }

    public void setAccountName(@Nullable String accountName) {
      this.accountName = accountName;
    }

    public @Nullable String getAccountKey() {
      return accountKey;
    }

    public void setAccountKey(@Nullable String accountKey) {
      this.accountKey = accountKey;
    }

    public @Nullable String getConnectionString() {
      return connectionString;
    }

    public void setConnectionString(@Nullable String connectionString) {
      this.connectionString = connectionString;
    }

    public DataSize getBlockSize() {
      return blockSize;
    }

    public void setBlockSize(DataSize blockSize) {
      this.blockSize = blockSize;
    }
  }

  /**
   * Streams not listed under objlog.streams. Off by default, so that a mistyped stream name fails
   * with UnknownStreamException instead of creating a stream.
   */
  public static class Defaults {

    /**
     * Whether a stream name not listed under objlog.streams opens the stream of that id (1 to 64
     * letters, digits, '-' or '_') with these defaults. Its partition count is recorded in the
     * bucket, so every instance agrees.
     */
    private boolean autoCreate;

    /**
     * Partition count of auto-created streams, 1 to 4096. Unset: a new stream gets 1, an existing
     * one keeps its recorded count. A count that differs from the recorded one fails.
     */
    private @Nullable Integer partitions;

    /** How this instance writes auto-created streams, as objlog.streams.<name>.writer does. */
    private final Writer writer = new Writer();

    public boolean isAutoCreate() {
      return autoCreate;
    }

    public void setAutoCreate(boolean autoCreate) {
      this.autoCreate = autoCreate;
    }

    public @Nullable Integer getPartitions() {
      return partitions;
    }

    public void setPartitions(@Nullable Integer partitions) {
      this.partitions = partitions;
    }

    public Writer getWriter() {
      return writer;
    }
  }

  /** One stream, configured under {@code objlog.streams.<name>}. */
  public static class Stream {

    /**
     * Stream id stored in the bucket, such as "orders/events": 1 to 512 bytes of UTF-8 without
     * control characters or empty, "." and ".." path segments. Defaults to the stream's name.
     */
    private @Nullable String streamId;

    /**
     * Number of partitions, 1 to 4096. Fixed for the life of the stream: startup fails when the
     * bucket says otherwise (a recorded count, or a partition past this count).
     */
    private int partitions = 1;

    /** How this instance writes the stream through the ObjlogTemplate. */
    private final Writer writer = new Writer();

    /**
     * How much of the stream's history to keep; the lifecycle schedule (objlog.lifecycle.enabled)
     * turns it into retention requests.
     */
    private final Retention retention = new Retention();

    public @Nullable String getStreamId() {
      return streamId;
    }

    public void setStreamId(@Nullable String streamId) {
      this.streamId = streamId;
    }

    public int getPartitions() {
      return partitions;
    }

    public void setPartitions(int partitions) {
      this.partitions = partitions;
    }

    public Writer getWriter() {
      return writer;
    }

    public Retention getRetention() {
      return retention;
    }
  }

  /**
   * Retention policy of one stream, applied per partition by the lifecycle schedule. Without
   * max-age and max-records the stream keeps everything. With both, a record goes only when both
   * allow it (the policy that keeps more wins). Retention trims whole segments, so a few records
   * beyond a limit may stay readable.
   */
  public static class Retention {

    /** Keep records at least this recent; older ones may be trimmed. Unset: no age limit. */
    private @Nullable Duration maxAge;

    /** Keep at most about this many newest records per partition. Unset: no count limit. */
    private @Nullable Long maxRecords;

    /**
     * Listener groups whose unconsumed records retention never trims. Takes effect once a
     * ConsumerRetentionGate bean exists (the @ObjlogListener support provides it); until then it
     * is ignored with a warning.
     */
    private List<String> consumerGroups = new ArrayList<>();

    /** Never trim records that the partition's newest snapshot marker does not cover. */
    private boolean snapshotGate;

    /** Retention "until consumed": trim what every registered consumer has applied. */
    private final UntilConsumed untilConsumed = new UntilConsumed();

    public UntilConsumed getUntilConsumed() {
      return untilConsumed;
    }

    public @Nullable Duration getMaxAge() {
      return maxAge;
    }

    public void setMaxAge(@Nullable Duration maxAge) {
      this.maxAge = maxAge;
    }

    public @Nullable Long getMaxRecords() {
      return maxRecords;
    }

    public void setMaxRecords(@Nullable Long maxRecords) {
      this.maxRecords = maxRecords;
    }

    public List<String> getConsumerGroups() {
      return consumerGroups;
    }

    public void setConsumerGroups(List<String> consumerGroups) {
      this.consumerGroups = consumerGroups;
    }

    public boolean isSnapshotGate() {
      return snapshotGate;
    }

    public void setSnapshotGate(boolean snapshotGate) {
      this.snapshotGate = snapshotGate;
    }

    /** Whether a limit is set, so that the lifecycle schedule requests retention. */
    public boolean hasLimit() {
      return maxAge != null || maxRecords != null;
    }
  }

  /**
   * Retention until consumed ({@code dev.objlog.lifecycle.UntilConsumedRetention}): every lifecycle
   * run advances retention to the lowest floor the stream's consumers have applied (the listener
   * groups of {@code consumer-groups}, from their bucket or JDBC checkpoints, and every consumer
   * checkpoint in the bucket), never beyond the newest snapshot.
   */
  public static class UntilConsumed {

    /**
     * Whether the lifecycle schedule advances this stream's retention to what its consumers have
     * applied, and this instance's writers refuse to apply retention beyond it.
     */
    private boolean enabled;

    /** Consumed records to keep below the lowest consumer's floor. */
    private long keepRecords;

    /**
     * Stop waiting for a consumer that has not advanced for this long while behind. Unset: a
     * silent consumer holds retention back forever.
     */
    private @Nullable Duration expireAfter;

    /** How long a consumer may hold retention back before a warning names it. */
    private Duration warnAfter = Duration.ofMinutes(15);

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public long getKeepRecords() {
      return keepRecords;
    }

    public void setKeepRecords(long keepRecords) {
      this.keepRecords = keepRecords;
    }

    public @Nullable Duration getExpireAfter() {
      return expireAfter;
    }

    public void setExpireAfter(@Nullable Duration expireAfter) {
      this.expireAfter = expireAfter;
    }

    public Duration getWarnAfter() {
      return warnAfter;
    }

    public void setWarnAfter(Duration warnAfter) {
      this.warnAfter = warnAfter;
    }
  }

  /**
   * How this instance writes one stream: which partitions it owns, and the batching and
   * backpressure of each partition's writer ({@code dev.objlog.WriterOptions}).
   */
  public static class Writer {

    /**
     * Partitions this instance writes: "*" for all, or a list of partitions and ranges such as
     * "0-3,8". Opening a partition's writer fences out any other writer of it, so two instances
     * must not list the same partition.
     */
    private String partitions = "*";

    /**
     * Whether to open a new writer (fencing out the other one) when another writer took a
     * partition over. Off: sends to that partition fail with StaleWriterException until restart.
     */
    private boolean reopenAfterFenceLoss;

    /** When a partition's batch is cut into a segment. */
    private final Batch batch = new Batch();

    /** How much a partition may have cut but not yet committed. */
    private final Backpressure backpressure = new Backpressure();

    /** Batch delay following the observed commit latency, for throughput-first writers. */
    private final AdaptiveDelay adaptiveDelay = new AdaptiveDelay();

    /** How long a writer's background work keeps retrying before the writer fails. */
    private final Timeouts timeouts = new Timeouts();

    /** Sharing the writer partitions among instances by lease instead of by static configuration. */
    private final WriterLease lease = new WriterLease();

    public String getPartitions() {
      return partitions;
    }

    public void setPartitions(String partitions) {
      this.partitions = partitions;
    }

    public boolean isReopenAfterFenceLoss() {
      return reopenAfterFenceLoss;
    }

    public void setReopenAfterFenceLoss(boolean reopenAfterFenceLoss) {
      this.reopenAfterFenceLoss = reopenAfterFenceLoss;
    }

    public Batch getBatch() {
      return batch;
    }

    public Backpressure getBackpressure() {
      return backpressure;
    }

    public AdaptiveDelay getAdaptiveDelay() {
      return adaptiveDelay;
    }

    public Timeouts getTimeouts() {
      return timeouts;
    }

    public WriterLease getLease() {
      return lease;
    }

    /**
     * These settings as engine writer options (with a random writer id, which the template
     * replaces at every opening).
     *
     * @throws dev.objlog.InvalidArgumentException when a value is out of the engine's range
     */
    public WriterOptions toWriterOptions() {
      return WriterOptions.builder()
          .batch(new WriterOptions.BatchPolicy(batch.getMaxDelay(), batch.getMaxSize().toBytes(), batch.getMaxRecords()))
          .backpressure(backpressure.toBackpressurePolicy())
          .adaptiveDelay(new WriterOptions.AdaptiveDelay(adaptiveDelay.isEnabled(), adaptiveDelay.getMin(),
              adaptiveDelay.getMax(), adaptiveDelay.getMultiplier()))
          .timeouts(new WriterOptions.Timeouts(timeouts.getSegmentFinalize(), timeouts.getCatalogPublish()))
          .build();
    }
  }

  /**
   * Writer leases: the instances writing a stream divide its writer partitions among themselves,
   * each holding a disjoint share by lease (kept by the listeners' checkpoint repository: JDBC
   * rows, or objects in the bucket; the in-memory one only within one JVM). An instance writes only
   * the partitions it holds, takes over those of an instance that stopped (at once after an
   * orderly shutdown, after the ttl after a crash), and keyed sends pick among the held partitions.
   */
  public static class WriterLease {

    /** Whether instances share this stream's writer partitions by lease. */
    private boolean enabled;

    /**
     * How long a lease lasts without renewal: the partitions of an instance that died stay
     * unwritten this long.
     */
    private Duration ttl = Duration.ofSeconds(30);

    /** How often leases are renewed and free partitions claimed. Unset: a third of the ttl. */
    private @Nullable Duration renewInterval;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public Duration getTtl() {
      return ttl;
    }

    public void setTtl(Duration ttl) {
      this.ttl = ttl;
    }

    public @Nullable Duration getRenewInterval() {
      return renewInterval;
    }

    public void setRenewInterval(@Nullable Duration renewInterval) {
      this.renewInterval = renewInterval;
    }

    /**
     * These settings for the template, or null when disabled.
     *
     * @throws IllegalArgumentException when the ttl or renew interval is not positive, or the
     *     interval is not shorter than the ttl
     */
    public @Nullable WriterLeaseSettings toSettings() {
      if (!enabled) {
        return null;
      }
      if (ttl.isNegative() || ttl.isZero()) {
        throw new IllegalArgumentException("the ttl " + ttl + " is not positive");
      }
      return renewInterval == null ? WriterLeaseSettings.of(ttl) : new WriterLeaseSettings(ttl, renewInterval);
    }
  }

  /** When a partition's batch is cut into a segment: at the first limit reached. */
  public static class Batch {

    /** Age of a batch at which it is cut; 0 disables the age limit. */
    private Duration maxDelay = Duration.ofMillis(10);

    /** Raw encoded record bytes per batch; a larger single record gets a segment of its own. */
    private DataSize maxSize = DataSize.ofMegabytes(64);

    /** Records per batch. */
    private int maxRecords = 16_384;

    public Duration getMaxDelay() {
      return maxDelay;
    }

    public void setMaxDelay(Duration maxDelay) {
      this.maxDelay = maxDelay;
    }

    public DataSize getMaxSize() {
      return maxSize;
    }

    public void setMaxSize(DataSize maxSize) {
      this.maxSize = maxSize;
    }

    public int getMaxRecords() {
      return maxRecords;
    }

    public void setMaxRecords(int maxRecords) {
      this.maxRecords = maxRecords;
    }
  }

  /** Bounds what a partition's writer has cut but not yet committed. */
  public static class Backpressure {

    /** Segments cut but not yet committed; a cut beyond it waits (or fails, see fail-when-full). */
    private int maxPendingSegments = 4;

    /** Worst-case encoded size of those segments plus the batch being built. */
    private DataSize maxPendingSize = DataSize.ofMegabytes(256);

    /** Whether a send fails with WriterBackpressureException instead of waiting when full. */
    private boolean failWhenFull;

    /**
     * Largest record a partition's writer accepts (its encoded size: 16 bytes of envelope,
     * headers and value), 16B to 4456464B; a larger send fails with
     * RecordExceedsPendingBudgetException. Each writer is guaranteed one such record plus one
     * block of objlog.memory.budget, so lowering it lets more partition writers share a budget.
     * Unset: the format's largest record, 4456464B (4MB of value, 256KB of headers, 16B).
     */
    private @Nullable DataSize maxRecordSize;

    public int getMaxPendingSegments() {
      return maxPendingSegments;
    }

    public void setMaxPendingSegments(int maxPendingSegments) {
      this.maxPendingSegments = maxPendingSegments;
    }

    public DataSize getMaxPendingSize() {
      return maxPendingSize;
    }

    public void setMaxPendingSize(DataSize maxPendingSize) {
      this.maxPendingSize = maxPendingSize;
    }

    public boolean isFailWhenFull() {
      return failWhenFull;
    }

    public void setFailWhenFull(boolean failWhenFull) {
      this.failWhenFull = failWhenFull;
    }

    public @Nullable DataSize getMaxRecordSize() {
      return maxRecordSize;
    }

    public void setMaxRecordSize(@Nullable DataSize maxRecordSize) {
      this.maxRecordSize = maxRecordSize;
    }

    /**
     * These settings as the engine's policy.
     *
     * @throws dev.objlog.InvalidArgumentException when a value is out of the engine's range
     */
    public WriterOptions.BackpressurePolicy toBackpressurePolicy() {
      WriterOptions.BackpressurePolicy policy = new WriterOptions.BackpressurePolicy(maxPendingSegments,
          maxPendingSize.toBytes(), failWhenFull);
      if (maxRecordSize == null) {
        return policy;
      }
      // A size beyond an int is beyond the engine's range too: clamped, the engine refuses it.
      long bytes = Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, maxRecordSize.toBytes()));
      return policy.withMaxRecordBytes((int) bytes);
    }
  }

  /**
   * Lets the batch delay follow the time a segment takes to persist (cut to commit): multiplier
   * times a moving average of it, at most the time a whole batch takes to fill at the append rate,
   * clamped to min..max; batch.max-delay until the first commit. While disabled, batch.max-delay
   * applies as given.
   */
  public static class AdaptiveDelay {

    /** Whether the batch delay follows the persist time of segments. */
    private boolean enabled;

    /** Lower bound of the adaptive batch delay. */
    private Duration min = Duration.ofMillis(1);

    /** Upper bound of the adaptive batch delay. */
    private Duration max = Duration.ofMillis(250);

    /** Factor on the moving average of persist time; 1 keeps about one segment persisting at a time. */
    private double multiplier = 1.0;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public Duration getMin() {
      return min;
    }

    public void setMin(Duration min) {
      this.min = min;
    }

    public Duration getMax() {
      return max;
    }

    public void setMax(Duration max) {
      this.max = max;
    }

    public double getMultiplier() {
      return multiplier;
    }

    public void setMultiplier(double multiplier) {
      this.multiplier = multiplier;
    }
  }

  /** How long a writer's background work keeps retrying before the writer fails for good. */
  public static class Timeouts {

    /** Sealing and uploading one segment, retries included. */
    private Duration segmentFinalize = Duration.ofMinutes(5);

    /** Committing one group of segments to the catalog, retries included. */
    private Duration catalogPublish = Duration.ofSeconds(30);

    public Duration getSegmentFinalize() {
      return segmentFinalize;
    }

    public void setSegmentFinalize(Duration segmentFinalize) {
      this.segmentFinalize = segmentFinalize;
    }

    public Duration getCatalogPublish() {
      return catalogPublish;
    }

    public void setCatalogPublish(Duration catalogPublish) {
      this.catalogPublish = catalogPublish;
    }
  }

  /** The shared reader of each configured stream ({@code ObjlogStreams.reader(name)}). */
  public static class Reader {

    /** Most records one read returns; larger limits are capped to it. */
    private int maxRecordsPerBatch = 1024;

    /** How often the heads of watched partitions are refreshed from the store. */
    private Duration pollInterval = Duration.ofSeconds(1);

    /** Most head refreshes one poll runs at once. */
    private int maxConcurrentRefreshes = 16;

    /** How long a poll waits for one head refresh before it moves on. */
    private Duration refreshTimeout = Duration.ofSeconds(5);

    /** Memory for opened segments (validated trailer and block index). */
    private DataSize segmentIndexCacheSize = DataSize.ofMegabytes(64);

    /** Memory for decoded blocks reused by reads near the tail; 0 disables the cache. */
    private DataSize blockCacheSize = DataSize.ofMegabytes(256);

    /** Blocks a replay, or a tailer (a listener) behind the head, fetches ahead of its consumer, 0 to 1024. */
    private int readAheadBlocks = 8;

    public int getMaxRecordsPerBatch() {
      return maxRecordsPerBatch;
    }

    public void setMaxRecordsPerBatch(int maxRecordsPerBatch) {
      this.maxRecordsPerBatch = maxRecordsPerBatch;
    }

    public Duration getPollInterval() {
      return pollInterval;
    }

    public void setPollInterval(Duration pollInterval) {
      this.pollInterval = pollInterval;
    }

    public int getMaxConcurrentRefreshes() {
      return maxConcurrentRefreshes;
    }

    public void setMaxConcurrentRefreshes(int maxConcurrentRefreshes) {
      this.maxConcurrentRefreshes = maxConcurrentRefreshes;
    }

    public Duration getRefreshTimeout() {
      return refreshTimeout;
    }

    public void setRefreshTimeout(Duration refreshTimeout) {
      this.refreshTimeout = refreshTimeout;
    }

    public DataSize getSegmentIndexCacheSize() {
      return segmentIndexCacheSize;
    }

    public void setSegmentIndexCacheSize(DataSize segmentIndexCacheSize) {
      this.segmentIndexCacheSize = segmentIndexCacheSize;
    }

    public DataSize getBlockCacheSize() {
      return blockCacheSize;
    }

    public void setBlockCacheSize(DataSize blockCacheSize) {
      this.blockCacheSize = blockCacheSize;
    }

    public int getReadAheadBlocks() {
      return readAheadBlocks;
    }

    public void setReadAheadBlocks(int readAheadBlocks) {
      this.readAheadBlocks = readAheadBlocks;
    }

    /**
     * These settings as engine reader options.
     *
     * @throws dev.objlog.InvalidArgumentException when a value is out of the engine's range
     */
    public ReaderOptions toReaderOptions() {
      return ReaderOptions.builder()
          .maxRecordsPerBatch(maxRecordsPerBatch)
          .pollInterval(pollInterval)
          .maxConcurrentRefreshes(maxConcurrentRefreshes)
          .refreshTimeout(refreshTimeout)
          .segmentIndexCacheBytes(segmentIndexCacheSize.toBytes())
          .blockCacheBytes(blockCacheSize.toBytes())
          .readAheadBlocks(readAheadBlocks)
          .build();
    }
  }

  /** The objlog health indicator. It reads cached state only, never the store. */
  public static class Health {

    /**
     * How long the store may keep failing (or a writer may keep records uncommitted) before
     * health reports DOWN.
     */
    private Duration storeUnreachableThreshold = Duration.ofMinutes(1);

    /**
     * How often a background probe asks the store for one key's metadata, so health knows whether
     * the store answers while the application sends nothing; 0 turns the probe off.
     */
    private Duration probeInterval = Duration.ofSeconds(30);

    public Duration getProbeInterval() {
      return probeInterval;
    }

    public void setProbeInterval(Duration probeInterval) {
      this.probeInterval = probeInterval;
    }

    public Duration getStoreUnreachableThreshold() {
      return storeUnreachableThreshold;
    }

    public void setStoreUnreachableThreshold(Duration storeUnreachableThreshold) {
      this.storeUnreachableThreshold = storeUnreachableThreshold;
    }
  }

  /** The memory budget shared by the writers of every configured stream. */
  public static class Memory {

    /**
     * Size of the one memory budget all streams share: a size such as 256MB, or a share of the
     * heap such as 25%. Unset: 25% of the maximum heap, at least 32MB and at most 2GB. Each
     * partition writer is guaranteed one maximum record plus one block of it and borrows the rest;
     * startup fails when the writers of the configured streams need more than the budget.
     */
    private @Nullable String budget;

    public @Nullable String getBudget() {
      return budget;
    }

    public void setBudget(@Nullable String budget) {
      this.budget = budget;
    }

    /**
     * The budget these properties describe, new on each call.
     *
     * @throws ObjlogConfigurationException naming {@code objlog.memory.budget} when the value is
     *     neither a size nor a percentage
     */
    public MemoryBudget toMemoryBudget() {
      String value = budget == null ? "" : budget.trim();
      if (value.isEmpty()) {
        return MemoryBudget.heapDefault();
      }
      String problem;
      try {
        if (value.endsWith("%")) {
          return MemoryBudget.ofHeapPercent(Double.parseDouble(value.substring(0, value.length() - 1).trim()));
        }
        return MemoryBudget.ofBytes(DataSize.parse(value).toBytes());
      } catch (InvalidArgumentException e) {
        problem = "'" + value + "' is not a usable memory budget: " + e.getMessage() + ".";
      } catch (IllegalArgumentException e) {
        problem = "'" + value + "' is neither a size nor a percentage of the heap.";
      }
      throw new ObjlogConfigurationException("objlog.memory.budget", problem,
          "Set objlog.memory.budget to a size such as 256MB or a share of the heap such as 25%"
              + " (above 0, at most 100), or remove it for the default (25% of the heap, 32MB to 2GB).");
    }
  }

  /** The auto-configured ObjlogTemplate. */
  public static class Template {

    /**
     * The stream that sendDefault and messages without the objlog_stream header write. Unset:
     * none, and those sends fail with NoDefaultStreamException.
     */
    private @Nullable String defaultStream;

    public @Nullable String getDefaultStream() {
      return defaultStream;
    }

    public void setDefaultStream(@Nullable String defaultStream) {
      this.defaultStream = defaultStream;
    }

    /**
     * Whether each send is an objlog.template observation (in the application's
     * ObservationRegistry), whose tracer writes the trace context into the record's headers.
     */
    private boolean observationEnabled;

    public boolean isObservationEnabled() {
      return observationEnabled;
    }

    public void setObservationEnabled(boolean observationEnabled) {
      this.observationEnabled = observationEnabled;
    }
  }
}
