package dev.objlog.store.gcs;

import com.google.cloud.NoCredentials;
import com.google.cloud.storage.BucketInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectStoreContract;
import dev.objlog.store.RetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The store contract against {@link FakeGcsServer}, through the official client. */
class GcsObjectStoreTests extends ObjectStoreContract {
  static final String BUCKET = "objlog-contract";

  private static FakeGcsServer server;

  @BeforeAll
  static void startServer() throws Exception {
    server = FakeGcsServer.start();
    try (Storage admin =
        StorageOptions.http()
            .setHost(server.host())
            .setProjectId("test")
            .setCredentials(NoCredentials.getInstance())
            .build()
            .getService()) {
      admin.create(BucketInfo.of(BUCKET));
    }
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  @Override
  protected ObjectStore createStore() {
    return GcsObjectStore.builder()
        .bucket(BUCKET)
        .host(server.host())
        .projectId("test")
        .credentials(NoCredentials.getInstance())
        .uploadChunkSize(GcsObjectStore.CHUNK_GRANULARITY)
        .retryPolicy(new RetryPolicy(3, Duration.ofMillis(5), Duration.ofMillis(20), 0.5, Duration.ofSeconds(10)))
        .build();
  }

  /** Five full 256 KiB chunks and a partial sixth: the resumable path with several chunk requests. */
  @Override
  protected int largeUploadSize() {
    return 5 * GcsObjectStore.CHUNK_GRANULARITY + 17;
  }
}
