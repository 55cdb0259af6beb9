package dev.objlog.store.azure;

import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import dev.objlog.lifecycle.ProviderLifecycleScenario;
import dev.objlog.store.RetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Retention and reclaim key paths against Azurite's blob service (fails under CI without it). */
class AzuriteLifecycleTests {
  private static AzuriteProcess azurite;

  @BeforeAll
  static void start() throws Exception {
    if (!AzuriteProcess.installed()) {
      return;
    }
    azurite = AzuriteProcess.start();
    new BlobServiceClientBuilder()
        .endpoint(azurite.endpoint())
        .credential(new StorageSharedKeyCredential(AzuriteProcess.ACCOUNT, AzuriteProcess.KEY))
        .buildClient()
        .createBlobContainer("lifecycle");
  }

  @AfterAll
  static void stop() throws Exception {
    if (azurite != null) {
      azurite.close();
    }
  }

  @Test
  void retentionApplyReclaimAndScrub() {
    AzuriteProcess.assumeInstalled();
    try (AzureBlobObjectStore store = AzureBlobObjectStore.builder()
        .endpoint(azurite.endpoint())
        .sharedKey(AzuriteProcess.ACCOUNT, AzuriteProcess.KEY)
        .containerName("lifecycle")
        .retryPolicy(new RetryPolicy(3, Duration.ofMillis(20), Duration.ofMillis(200), 0.5, Duration.ofSeconds(30)))
        .build()) {
      ProviderLifecycleScenario.run(store);
    }
  }
}
