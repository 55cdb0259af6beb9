package dev.objlog.store.gcs;

import com.google.cloud.NoCredentials;
import com.google.cloud.storage.BucketInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import dev.objlog.lifecycle.ProviderLifecycleScenario;
import dev.objlog.store.RetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Retention and reclaim key paths against the GCS test server, through the official client. */
class GcsLifecycleTests {
  private static final String BUCKET = "objlog-lifecycle";
  private static FakeGcsServer server;

  @BeforeAll
  static void start() throws Exception {
    server = FakeGcsServer.start();
    try (Storage admin = StorageOptions.http().setHost(server.host()).setProjectId("test")
        .setCredentials(NoCredentials.getInstance()).build().getService()) {
      admin.create(BucketInfo.of(BUCKET));
    }
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void retentionApplyReclaimAndScrub() {
    try (GcsObjectStore store = GcsObjectStore.builder()
        .bucket(BUCKET)
        .host(server.host())
        .projectId("test")
        .credentials(NoCredentials.getInstance())
        .retryPolicy(new RetryPolicy(3, Duration.ofMillis(5), Duration.ofMillis(20), 0.5, Duration.ofSeconds(10)))
        .build()) {
      ProviderLifecycleScenario.run(store);
    }
  }
}
