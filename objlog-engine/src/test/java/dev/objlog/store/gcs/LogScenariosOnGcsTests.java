package dev.objlog.store.gcs;

import com.google.cloud.NoCredentials;
import com.google.cloud.storage.BucketInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import dev.objlog.LogScenarioContract;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.RetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The log's key scenarios against our GCS JSON-API test server. */
class LogScenariosOnGcsTests extends LogScenarioContract {
  private static final String BUCKET = "scenarios";
  private static FakeGcsServer server;
  private static ObjectStore shared;

  @BeforeAll
  static void startServer() throws Exception {
    server = FakeGcsServer.start();
    try (Storage admin = StorageOptions.newBuilder()
        .setHost(server.host())
        .setProjectId("test")
        .setCredentials(NoCredentials.getInstance())
        .build()
        .getService()) {
      admin.create(BucketInfo.of(BUCKET));
    }
    shared = GcsObjectStore.builder()
        .bucket(BUCKET)
        .host(server.host())
        .projectId("test")
        .credentials(NoCredentials.getInstance())
        .retryPolicy(new RetryPolicy(3, Duration.ofMillis(5), Duration.ofMillis(20), 0.5, Duration.ofSeconds(10)))
        .build();
  }

  @AfterAll
  static void stopServer() {
    if (shared != null) {
      shared.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Override
  protected ObjectStore store() {
    return shared;
  }
}
