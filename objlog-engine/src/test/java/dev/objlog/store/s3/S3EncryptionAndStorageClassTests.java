package dev.objlog.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.store.EveryWriteKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Server-side encryption and the segment storage class reach S3 on every write: single PUTs
 * (create-only and compare-and-swap) and the start of multipart uploads, which is where S3 takes
 * them for the whole object. The headers are captured at the HTTP layer by an SDK interceptor
 * ({@code beforeTransmission}, after signing: exactly what goes on the wire). S3Proxy accepts the
 * SSE and storage-class headers (it does not encrypt, nor keep the class of multipart objects), so
 * every write also succeeds end to end.
 */
class S3EncryptionAndStorageClassTests {
  private static final String BUCKET = "objlog-encryption";
  private static final String KMS_KEY = "arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab";

  private static S3ProxyServer server;
  private final String prefix = "enc/" + UUID.randomUUID() + "/";

  @BeforeAll
  static void start() {
    server = S3ProxyServer.start(true);
    server.createBucket(BUCKET);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  /** One write request as the SDK sent it: operation name and the headers we care about. */
  record Sent(String operation, Map<String, List<String>> headers) {
    Optional<String> header(String name) {
      return headers.entrySet().stream()
          .filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(e -> e.getValue().get(0))
          .findFirst();
    }
  }

  /** Records every request as it goes on the wire (after signing). */
  static final class Capture implements ExecutionInterceptor {
    private final List<Sent> sent = new ArrayList<>();

    @Override
    public synchronized void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
      sent.add(new Sent(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME), context.httpRequest().headers()));
    }

    /** The object writes: the requests that create objects, where S3 takes encryption and class. */
    synchronized List<Sent> writes() {
      return sent.stream()
          .filter(s -> s.operation().equals("PutObject") || s.operation().equals("CreateMultipartUpload"))
          .toList();
    }

    synchronized List<Sent> all() {
      return List.copyOf(sent);
    }
  }

  private static S3Client client(Capture capture) {
    return S3Client.builder()
        .endpointOverride(server.endpoint)
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY)))
        .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()).addExecutionInterceptor(capture))
        .build();
  }

  private void writeEveryWay(S3ObjectStore store) {
    EveryWriteKind.write(store, prefix, 2 * S3ObjectStore.MIN_PART_SIZE + 17);
  }


  @Test
  void sseKmsWithAKeyIsOnEveryPutAndMultipartStart() {
    Capture capture = new Capture();
    try (S3Client client = client(capture);
        S3ObjectStore store =
            S3ObjectStore.builder().bucket(BUCKET).client(client).partSize(S3ObjectStore.MIN_PART_SIZE).sseKms(KMS_KEY).build()) {
      writeEveryWay(store);
    }
    List<Sent> writes = capture.writes();
    assertThat(writes).extracting(Sent::operation)
        .containsExactly("PutObject", "PutObject", "PutObject", "CreateMultipartUpload");
    assertThat(writes).allSatisfy(w -> {
      assertThat(w.header("x-amz-server-side-encryption")).contains("aws:kms");
      assertThat(w.header("x-amz-server-side-encryption-aws-kms-key-id")).contains(KMS_KEY);
    });
    assertThat(capture.all()).extracting(Sent::operation).contains("UploadPart", "CompleteMultipartUpload");
  }

  @Test
  void sseS3SendsAes256AndNoKeyId() {
    Capture capture = new Capture();
    try (S3Client client = client(capture);
        S3ObjectStore store =
            S3ObjectStore.builder().bucket(BUCKET).client(client).partSize(S3ObjectStore.MIN_PART_SIZE).sseS3().build()) {
      writeEveryWay(store);
    }
    assertThat(capture.writes()).hasSize(4).allSatisfy(w -> {
      assertThat(w.header("x-amz-server-side-encryption")).contains("AES256");
      assertThat(w.header("x-amz-server-side-encryption-aws-kms-key-id")).isEmpty();
    });
  }

  @Test
  void segmentStorageClassIsSentOnSegmentWritesOnly() {
    Capture capture = new Capture();
    try (S3Client client = client(capture);
        S3ObjectStore store =
            S3ObjectStore.builder()
                .bucket(BUCKET)
                .client(client)
                .partSize(S3ObjectStore.MIN_PART_SIZE)
                .segmentStorageClass("standard_ia")
                .build()) {
      writeEveryWay(store);
    }
    List<Sent> writes = capture.writes();
    assertThat(writes.subList(0, 2)).allSatisfy(w -> assertThat(w.header("x-amz-storage-class")).isEmpty());
    assertThat(writes.subList(2, 4)).allSatisfy(w -> assertThat(w.header("x-amz-storage-class")).contains("STANDARD_IA"));
  }

  @Test
  void withoutSettingsNoEncryptionOrStorageClassHeaderIsSent() {
    Capture capture = new Capture();
    try (S3Client client = client(capture);
        S3ObjectStore store = S3ObjectStore.builder().bucket(BUCKET).client(client).partSize(S3ObjectStore.MIN_PART_SIZE).build()) {
      writeEveryWay(store);
    }
    assertThat(capture.writes()).hasSize(4).allSatisfy(w -> {
      assertThat(w.header("x-amz-server-side-encryption")).isEmpty();
      assertThat(w.header("x-amz-storage-class")).isEmpty();
    });
  }

  @Test
  void storageClassesThatNeedARestoreOrDoNotExistAreRejected() {
    assertThatThrownBy(() -> S3ObjectStore.builder().segmentStorageClass("GLACIER"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'GLACIER' is not a storage class objlog can write S3 segments with")
        .hasMessageContaining("GLACIER_IR");
    assertThatThrownBy(() -> S3ObjectStore.builder().segmentStorageClass("FAST"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("STANDARD_IA");
    assertThatThrownBy(() -> S3ObjectStore.builder().sseKms(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("KMS key id must not be blank");
  }
}
