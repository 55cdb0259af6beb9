package dev.objlog.store.s3;

import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectStoreContract;
import dev.objlog.store.RetryPolicy;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.testcontainers.containers.MinIOContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The store contract against a real MinIO in a container, where a Docker engine exists; skipped
 * cleanly where none does. MinIO's conditional writes are atomic, so no wrapper is needed.
 */
@Testcontainers(disabledWithoutDocker = true)
class S3ObjectStoreMinioTests extends ObjectStoreContract {
  private static final String BUCKET = "objlog-contract";

  @Container
  private static final MinIOContainer MINIO = new MinIOContainer("minio/minio:RELEASE.2025-04-22T22-12-26Z");

  @BeforeAll
  static void createBucket() {
    try (S3Client client =
        S3Client.builder()
            .endpointOverride(URI.create(MINIO.getS3URL()))
            .region(Region.US_EAST_1)
            .forcePathStyle(true)
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create(MINIO.getUserName(), MINIO.getPassword())))
            .build()) {
      client.createBucket(b -> b.bucket(BUCKET));
    }
  }

  @Override
  protected ObjectStore createStore() {
    return S3ObjectStore.builder()
        .bucket(BUCKET)
        .endpoint(URI.create(MINIO.getS3URL()))
        .pathStyle(true)
        .credentials(MINIO.getUserName(), MINIO.getPassword())
        .partSize(S3ObjectStore.MIN_PART_SIZE)
        .retryPolicy(new RetryPolicy(3, Duration.ofMillis(20), Duration.ofMillis(200), 0.5, Duration.ofSeconds(30)))
        .build();
  }

  @Override
  protected int largeUploadSize() {
    return 2 * S3ObjectStore.MIN_PART_SIZE + 1024 * 1024 + 17;
  }
}
