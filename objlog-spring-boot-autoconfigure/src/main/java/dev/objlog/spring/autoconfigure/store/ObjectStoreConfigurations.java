package dev.objlog.spring.autoconfigure.store;

import com.azure.storage.blob.BlobServiceClient;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.storage.Storage;
import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import dev.objlog.spring.autoconfigure.ObjlogProperties;
import dev.objlog.spring.autoconfigure.ObjlogProperties.StoreType;
import dev.objlog.store.CloudStoreBuilder;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.azure.AzureBlobObjectStore;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import dev.objlog.store.gcs.GcsObjectStore;
import dev.objlog.store.memory.MemoryObjectStore;
import dev.objlog.store.s3.S3ObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * One configuration per store type, imported in this order by {@link
 * ObjlogStoreAutoConfiguration}; the last one explains a store type whose SDK is missing.
 */
final class ObjectStoreConfigurations {
  private static final Log logger = LogFactory.getLog(ObjectStoreConfigurations.class);

  private ObjectStoreConfigurations() {}

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnMissingBean(ObjectStore.class)
  @ConditionalOnStoreType(StoreType.FILESYSTEM)
  static class Filesystem {

    @Bean
    FilesystemObjectStore objlogObjectStore(ObjlogProperties properties) {
      String root = properties.getStore().getFilesystem().getRoot();
      Path path;
      try {
        path = Path.of(root.isBlank() ? "" : root);
      } catch (InvalidPathException e) {
        throw new ObjlogConfigurationException(
            "objlog.store.filesystem.root",
            "'" + root + "' is not a valid path: " + e.getReason() + ".",
            "Set objlog.store.filesystem.root to a directory such as ./objlog-data.");
      }
      if (root.isBlank()) {
        throw new ObjlogConfigurationException(
            "objlog.store.filesystem.root",
            "the filesystem store needs a root directory.",
            "Set objlog.store.filesystem.root to a directory such as ./objlog-data.");
      }
      if (properties.getStore().getType() == null) {
        // The embedded default: say where the log goes, since nothing asked for it by name.
        logger.info("objlog.store.type is not set and no bucket is named: the log lives in the filesystem store at "
            + path.toAbsolutePath().normalize() + " (set objlog.store.type to choose another store)");
      }
      return FilesystemObjectStore.open(path);
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnMissingBean(ObjectStore.class)
  @ConditionalOnStoreType(StoreType.MEMORY)
  static class Memory {

    @Bean
    MemoryObjectStore objlogObjectStore() {
      return new MemoryObjectStore();
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(S3Client.class)
  @ConditionalOnMissingBean(ObjectStore.class)
  @ConditionalOnStoreType(StoreType.S3)
  static class S3 {

    @Bean
    @ConditionalOnMissingBean(ObjlogConnectionDetails.class)
    PropertiesObjlogConnectionDetails objlogConnectionDetails(ObjlogProperties properties) {
      return new PropertiesObjlogConnectionDetails(properties);
    }

    @Bean
    S3ObjectStore objlogObjectStore(
        ObjlogProperties properties, ObjlogConnectionDetails details, ObjectProvider<S3Client> clients) {
      logIfInferred(properties, "s3");
      String bucket = details.getBucket() != null ? details.getBucket() : properties.getStore().getBucket();
      if (bucket == null || bucket.isBlank()) {
        throw new ObjlogConfigurationException(
            "objlog.store.bucket",
            "objlog.store.type=s3 needs a bucket.",
            "Set objlog.store.bucket to the name of an existing bucket; objlog never creates buckets.");
      }
      S3ObjectStore.Builder builder =
          S3ObjectStore.builder()
              .bucket(bucket)
              .partSize((int) properties.getStore().getS3().getPartSize().toBytes());
      segmentStorageClass(builder, properties.getStore());
      encryption(builder, properties.getStore().getS3());
      // Explicit settings and service connections mean "build a client for objlog"; otherwise an
      // application's own S3Client is reused (and left open: the store never closes given clients).
      boolean explicit =
          !(details instanceof PropertiesObjlogConnectionDetails fromProperties) || fromProperties.hasConnectionSettings();
      S3Client shared = explicit ? null : clients.getIfUnique();
      if (shared != null) {
        return builder.client(shared).build();
      }
      URI endpoint = details.getEndpoint();
      if (endpoint != null) {
        builder.endpoint(endpoint);
      }
      if (details.getRegion() != null && !details.getRegion().isBlank()) {
        builder.region(details.getRegion());
      }
      builder.pathStyle(details.isPathStyle());
      String accessKey = details.getAccessKey();
      String secretKey = details.getSecretKey();
      if (hasText(accessKey) != hasText(secretKey)) {
        throw new ObjlogConfigurationException(
            hasText(accessKey) ? "objlog.store.s3.secret-key" : "objlog.store.s3.access-key",
            "static S3 credentials need both an access key and a secret key.",
            "Set both objlog.store.s3.access-key and objlog.store.s3.secret-key, or neither to use the"
                + " AWS SDK's default credentials chain.");
      }
      if (accessKey != null && secretKey != null && hasText(accessKey)) {
        builder.credentials(accessKey, secretKey);
      }
      return builder.build();
    }

    private static void encryption(S3ObjectStore.Builder builder, ObjlogProperties.S3 s3) {
      String keyId = s3.getKmsKeyId();
      switch (s3.getServerSideEncryption()) {
        case SSE_KMS -> builder.sseKms(hasText(keyId) ? keyId : null);
        case SSE_S3, NONE -> {
          if (hasText(keyId)) {
            throw new ObjlogConfigurationException(
                "objlog.store.s3.kms-key-id",
                "a KMS key is set but objlog.store.s3.server-side-encryption is "
                    + s3.getServerSideEncryption().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-') + ".",
                "Set objlog.store.s3.server-side-encryption=sse-kms to encrypt with that key, or unset"
                    + " objlog.store.s3.kms-key-id.");
          }
          if (s3.getServerSideEncryption() == ObjlogProperties.S3Encryption.SSE_S3) {
            builder.sseS3();
          }
        }
      }
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(Storage.class)
  @ConditionalOnMissingBean(ObjectStore.class)
  @ConditionalOnStoreType(StoreType.GCS)
  static class Gcs {

    @Bean
    GcsObjectStore objlogObjectStore(ObjlogProperties properties, ObjectProvider<Storage> clients) {
      logIfInferred(properties, "gcs");
      ObjlogProperties.Store store = properties.getStore();
      String bucket = store.getBucket();
      if (bucket == null || bucket.isBlank()) {
        throw new ObjlogConfigurationException(
            "objlog.store.bucket",
            "objlog.store.type=gcs needs a bucket.",
            "Set objlog.store.bucket to the name of an existing bucket; objlog never creates buckets.");
      }
      ObjlogProperties.Gcs gcs = store.getGcs();
      GcsObjectStore.Builder builder =
          GcsObjectStore.builder().bucket(bucket).uploadChunkSize((int) gcs.getUploadChunkSize().toBytes());
      segmentStorageClass(builder, store);
      String kmsKeyName = gcs.getKmsKeyName();
      if (kmsKeyName != null && hasText(kmsKeyName)) {
        try {
          builder.kmsKeyName(kmsKeyName);
        } catch (IllegalArgumentException e) {
          throw new ObjlogConfigurationException(
              "objlog.store.gcs.kms-key-name", e.getMessage() + ".",
              "Set the full resource name of the Cloud KMS key, or unset it to use the bucket's default key.");
        }
      }
      boolean explicit = hasText(gcs.getProjectId()) || hasText(gcs.getHost()) || gcs.getCredentialsLocation() != null;
      Storage shared = explicit ? null : clients.getIfUnique();
      if (shared != null) {
        return builder.storage(shared).build();
      }
      if (gcs.getProjectId() != null && hasText(gcs.getProjectId())) {
        builder.projectId(gcs.getProjectId());
      }
      if (gcs.getHost() != null && hasText(gcs.getHost())) {
        builder.host(gcs.getHost());
      }
      Resource location = gcs.getCredentialsLocation();
      if (location != null) {
        builder.credentials(credentials(location));
      }
      return builder.build();
    }

    private static GoogleCredentials credentials(Resource location) {
      try (InputStream in = location.getInputStream()) {
        return GoogleCredentials.fromStream(in);
      } catch (IOException | RuntimeException e) {
        // No cause: a parser's message may quote the key file.
        throw new ObjlogConfigurationException(
            "objlog.store.gcs.credentials-location",
            "cannot read Google credentials from " + location.getDescription() + " ("
                + e.getClass().getSimpleName() + ").",
            "Point objlog.store.gcs.credentials-location at a readable service-account JSON key, or"
                + " unset it to use application default credentials.");
      }
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(BlobServiceClient.class)
  @ConditionalOnMissingBean(ObjectStore.class)
  @ConditionalOnStoreType(StoreType.AZURE)
  static class Azure {

    @Bean
    AzureBlobObjectStore objlogObjectStore(ObjlogProperties properties, ObjectProvider<BlobServiceClient> clients) {
      logIfInferred(properties, "azure");
      ObjlogProperties.Store store = properties.getStore();
      String container = store.getContainer();
      if (container == null || container.isBlank()) {
        throw new ObjlogConfigurationException(
            "objlog.store.container",
            "objlog.store.type=azure needs a blob container.",
            "Set objlog.store.container to the name of an existing container; objlog never creates"
                + " containers.");
      }
      ObjlogProperties.Azure azure = store.getAzure();
      AzureBlobObjectStore.Builder builder =
          AzureBlobObjectStore.builder().containerName(container).blockSize((int) azure.getBlockSize().toBytes());
      segmentStorageClass(builder, store);
      String scope = azure.getEncryptionScope();
      if (scope != null && hasText(scope)) {
        builder.encryptionScope(scope);
      }
      String connectionString = azure.getConnectionString();
      String endpoint = azure.getEndpoint();
      boolean hasConnectionString = connectionString != null && hasText(connectionString);
      boolean hasEndpoint = endpoint != null && hasText(endpoint);
      if (hasConnectionString && hasEndpoint) {
        throw new ObjlogConfigurationException(
            "objlog.store.azure.connection-string",
            "both objlog.store.azure.connection-string and objlog.store.azure.endpoint are set.",
            "Set only one of them: a connection string carries its own endpoint and key.");
      }
      boolean hasName = hasText(azure.getAccountName());
      boolean hasKey = hasText(azure.getAccountKey());
      if (hasName != hasKey) {
        throw new ObjlogConfigurationException(
            hasName ? "objlog.store.azure.account-key" : "objlog.store.azure.account-name",
            "shared-key credentials need both an account name and an account key.",
            "Set both objlog.store.azure.account-name and objlog.store.azure.account-key, or neither.");
      }
      if (hasName && !hasEndpoint) {
        throw new ObjlogConfigurationException(
            "objlog.store.azure.endpoint",
            "an account name and key are set but no endpoint to use them with.",
            "Set objlog.store.azure.endpoint, e.g. https://<account>.blob.core.windows.net.");
      }
      if (hasConnectionString) {
        return builder.connectionString(connectionString).build();
      }
      if (hasEndpoint) {
        builder.endpoint(endpoint);
        if (hasName) {
          builder.sharedKey(azure.getAccountName(), azure.getAccountKey());
        }
        return builder.build();
      }
      BlobServiceClient shared = clients.getIfUnique();
      if (shared == null) {
        throw new ObjlogConfigurationException(
            "objlog.store.azure.endpoint",
            "objlog.store.type=azure needs a way to reach the storage account.",
            "Set objlog.store.azure.connection-string, or objlog.store.azure.endpoint (with"
                + " account-name and account-key unless it carries a SAS token), or define a"
                + " BlobServiceClient bean.");
      }
      return builder.serviceClient(shared).build();
    }
  }

  /**
   * Matches only when no store configuration above did: the store type cannot be decided
   * ({@link StoreTypeResolution}), or the SDK of the configured type is missing (an unknown type
   * fails earlier, when the properties are bound).
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnMissingBean(ObjectStore.class)
  static class MissingProvider {

    @Bean
    ObjectStore objlogObjectStore(ObjlogProperties properties, Environment environment, ResourceLoader resourceLoader) {
      StoreTypeResolution resolution = StoreTypeResolution.resolve(environment, resourceLoader.getClassLoader());
      if (resolution.failure() != null) {
        throw resolution.failure();
      }
      StoreType type = resolution.type() != null ? resolution.type() : properties.getStore().getType();
      StoreTypeResolution.Sdk sdk = type == null ? null : StoreTypeResolution.Sdk.of(type);
      if (sdk == null) {
        throw new IllegalStateException("no objlog store configuration matched objlog.store.type=" + type);
      }
      String name = sdk.typeName();
      throw new ObjlogConfigurationException(
          StoreTypeResolution.TYPE,
          "objlog.store.type=" + name + " needs " + sdk.artifact + ", which is not on the classpath.",
          "Add " + sdk.artifact + " to use objlog.store.type=" + name
              + " (its version is managed by the provider's BOM), or choose another store type.");
    }
  }

  /** A store type chosen from the classpath is worth one line: nothing named it. */
  private static void logIfInferred(ObjlogProperties properties, String type) {
    if (properties.getStore().getType() == null) {
      logger.info("objlog.store.type is not set: using " + type + ", the only provider SDK on the classpath for the"
          + " configured bucket or container");
    }
  }

  /** Applies objlog.store.segment-storage-class, turning a name the provider refuses into a startup failure. */
  private static void segmentStorageClass(CloudStoreBuilder<?> builder, ObjlogProperties.Store store) {
    String name = store.getSegmentStorageClass();
    if (name == null || !hasText(name)) {
      return;
    }
    try {
      builder.segmentStorageClass(name);
    } catch (IllegalArgumentException e) {
      throw new ObjlogConfigurationException(
          "objlog.store.segment-storage-class", e.getMessage() + ".",
          "Set one of the classes named, or unset objlog.store.segment-storage-class to use the bucket's default.");
    }
  }

  static boolean hasText(@Nullable String s) {
    return s != null && !s.isBlank();
  }
}
