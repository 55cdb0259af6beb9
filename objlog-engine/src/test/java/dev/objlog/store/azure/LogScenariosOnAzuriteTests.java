package dev.objlog.store.azure;

import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import dev.objlog.LogScenarioContract;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.RetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The log's key scenarios against Azurite (skipped without it, except under CI=true). */
class LogScenariosOnAzuriteTests extends LogScenarioContract {
  private static AzuriteProcess azurite;
  private static ObjectStore shared;

  @BeforeAll
  static void startAzurite() throws Exception {
    AzuriteProcess.assumeInstalled();
    azurite = AzuriteProcess.start();
    new BlobServiceClientBuilder()
        .endpoint(azurite.endpoint())
        .credential(new StorageSharedKeyCredential(AzuriteProcess.ACCOUNT, AzuriteProcess.KEY))
        .buildClient()
        .createBlobContainer("scenarios");
    shared = AzureBlobObjectStore.builder()
        .endpoint(azurite.endpoint())
        .sharedKey(AzuriteProcess.ACCOUNT, AzuriteProcess.KEY)
        .containerName("scenarios")
        .retryPolicy(new RetryPolicy(3, Duration.ofMillis(20), Duration.ofMillis(200), 0.5, Duration.ofSeconds(30)))
        .build();
  }

  @AfterAll
  static void stopAzurite() throws Exception {
    if (shared != null) {
      shared.close();
    }
    if (azurite != null) {
      azurite.close();
    }
  }

  @Override
  protected ObjectStore store() {
    return shared;
  }
}
