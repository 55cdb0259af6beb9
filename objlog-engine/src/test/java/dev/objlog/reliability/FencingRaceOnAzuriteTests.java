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

/** Fencing race on OnAzurite. */
class FencingRaceOnAzuriteTests extends FencingRaceContract {
  private static AzuriteAccess azurite;

  @BeforeAll
  static void start() throws Exception {
    azurite = AzuriteAccess.start();
    new BlobServiceClientBuilder().endpoint(azurite.endpoint())
        .credential(new StorageSharedKeyCredential(AzuriteAccess.ACCOUNT, AzuriteAccess.KEY))
        .buildClient().createBlobContainer("race");
  }

  @AfterAll
  static void stop() throws Exception {
    if (azurite != null) {
      azurite.close();
    }
  }

  @Override
  protected ObjectStore newClient() {
    return AzureBlobObjectStore.builder().endpoint(azurite.endpoint())
        .sharedKey(AzuriteAccess.ACCOUNT, AzuriteAccess.KEY).containerName("race").retryPolicy(FencingRaceContract.RETRY).build();
  }
}
