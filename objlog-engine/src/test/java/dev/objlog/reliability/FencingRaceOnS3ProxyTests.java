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

/** Fencing race on OnS3Proxy. */
class FencingRaceOnS3ProxyTests extends FencingRaceContract {
  private static S3ProxyServer server;

  @BeforeAll
  static void start() {
    server = S3ProxyServer.start(true); // with the locking wrapper that makes If-Match atomic
    server.createBucket("race");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Override
  protected ObjectStore newClient() {
    return S3ObjectStore.builder().bucket("race").endpoint(server.endpoint).pathStyle(true).region("us-east-1")
        .credentials(S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY).retryPolicy(FencingRaceContract.RETRY).build();
  }
}
