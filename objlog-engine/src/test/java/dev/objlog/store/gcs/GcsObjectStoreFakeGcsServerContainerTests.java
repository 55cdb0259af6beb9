package dev.objlog.store.gcs;

import com.google.cloud.NoCredentials;
import com.google.cloud.storage.BucketInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectStoreContract;
import dev.objlog.store.RetryPolicy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.utility.DockerImageName;

/**
 * The store contract against fsouza/fake-gcs-server in a container: an independent GCS emulator
 * that keeps {@link FakeGcsServer} honest. Runs where Docker is available and skips elsewhere.
 */
@Testcontainers(disabledWithoutDocker = true)
class GcsObjectStoreFakeGcsServerContainerTests extends ObjectStoreContract {
  private static final String BUCKET = "objlog-container";
  private static final int PORT = 4443;

  @Container
  private static final GenericContainer<?> FAKE_GCS =
      new GenericContainer<>(DockerImageName.parse("fsouza/fake-gcs-server:1.52.2"))
          .withCommand("-scheme", "http", "-port", Integer.toString(PORT), "-backend", "memory")
          .withExposedPorts(PORT)
          .waitingFor(Wait.forHttp("/storage/v1/b").forPort(PORT).forStatusCode(200));

  private static String host() {
    return "http://" + FAKE_GCS.getHost() + ":" + FAKE_GCS.getMappedPort(PORT);
  }

  @BeforeAll
  static void configure() throws Exception {
    // Resumable-upload Location headers must point at the mapped port, which is known only now.
    HttpResponse<String> configured =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(host() + "/_internal/config"))
                    .header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"externalUrl\":\"" + host() + "\"}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    if (configured.statusCode() / 100 != 2) {
      throw new IllegalStateException("fake-gcs-server refused its external URL: " + configured.body());
    }
    try (Storage admin =
        StorageOptions.http()
            .setHost(host())
            .setProjectId("test")
            .setCredentials(NoCredentials.getInstance())
            .build()
            .getService()) {
      admin.create(BucketInfo.of(BUCKET));
    }
  }

  @Override
  protected ObjectStore createStore() {
    return GcsObjectStore.builder()
        .bucket(BUCKET)
        .host(host())
        .projectId("test")
        .credentials(NoCredentials.getInstance())
        .uploadChunkSize(GcsObjectStore.CHUNK_GRANULARITY)
        .retryPolicy(new RetryPolicy(3, Duration.ofMillis(5), Duration.ofMillis(20), 0.5, Duration.ofSeconds(30)))
        .build();
  }

  @Override
  protected int largeUploadSize() {
    return 5 * GcsObjectStore.CHUNK_GRANULARITY + 17;
  }
}
