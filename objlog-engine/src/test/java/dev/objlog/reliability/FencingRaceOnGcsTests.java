package dev.objlog.reliability;

import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.google.cloud.NoCredentials;
import com.google.cloud.storage.BucketInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.RetryPolicy;
import dev.objlog.store.azure.AzureBlobObjectStore;
import dev.objlog.store.azure.AzuriteAccess;
import dev.objlog.store.gcs.FakeGcsAccess;
import dev.objlog.store.gcs.GcsObjectStore;
import dev.objlog.store.memory.MemoryObjectStore;
import dev.objlog.store.s3.S3ObjectStore;
import dev.objlog.store.s3.S3ProxyServer;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Fencing race on OnGcsTestServer. */
class FencingRaceOnGcsTests extends FencingRaceContract {
  private static FakeGcsAccess server;

  @BeforeAll
  static void start() throws Exception {
    server = FakeGcsAccess.start();
    try (Storage admin = StorageOptions.newBuilder().setHost(server.host()).setProjectId("test")
        .setCredentials(NoCredentials.getInstance()).build().getService()) {
      admin.create(BucketInfo.of("race"));
    }
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Override
  protected ObjectStore newClient() {
    return GcsObjectStore.builder().bucket("race").host(server.host()).projectId("test")
        .credentials(NoCredentials.getInstance()).retryPolicy(FencingRaceContract.RETRY).build();
  }
}
