package dev.objlog.store.azure;

import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectStoreContract;
import dev.objlog.store.RetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The store contract against Azurite's blob service, started for this class. */
class AzureBlobObjectStoreAzuriteTests extends ObjectStoreContract {
  /** Small blocks, so that the contract's large upload crosses several staged blocks. */
  static final int BLOCK_SIZE = 512 * 1024;

  private static AzuriteProcess azurite;
  private static AzureBlobObjectStore shared;

  @BeforeAll
  static void startAzurite() throws Exception {
    if (!AzuriteProcess.installed()) {
      return;
    }
    azurite = AzuriteProcess.start();
    new BlobServiceClientBuilder()
        .endpoint(azurite.endpoint())
        .credential(new StorageSharedKeyCredential(AzuriteProcess.ACCOUNT, AzuriteProcess.KEY))
        .buildClient()
        .createBlobContainer("contract");
    shared =
        AzureBlobObjectStore.builder()
            .endpoint(azurite.endpoint())
            .sharedKey(AzuriteProcess.ACCOUNT, AzuriteProcess.KEY)
            .containerName("contract")
            .blockSize(BLOCK_SIZE)
            .retryPolicy(
                new RetryPolicy(3, Duration.ofMillis(20), Duration.ofMillis(200), 0.5, Duration.ofSeconds(30)))
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
  protected ObjectStore createStore() {
    AzuriteProcess.assumeInstalled();
    return shared;
  }

  @Override
  protected void releaseStore(ObjectStore store) {
    // One store for the class; closed with the server.
  }

  @Override
  protected int largeUploadSize() {
    return 6 * BLOCK_SIZE + 17;
  }
}
