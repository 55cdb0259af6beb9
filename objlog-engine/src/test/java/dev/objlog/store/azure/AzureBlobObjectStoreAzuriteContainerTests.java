package dev.objlog.store.azure;

import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectStoreContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.utility.DockerImageName;

/**
 * The store contract against Microsoft's Azurite image, where a Docker engine exists (skipped
 * cleanly elsewhere). It keeps the npm-installed emulator of {@link AzureBlobObjectStoreAzuriteTests}
 * honest against the published image of the same version.
 */
@Testcontainers(disabledWithoutDocker = true)
class AzureBlobObjectStoreAzuriteContainerTests extends ObjectStoreContract {
  private static final int BLOB_PORT = 10000;

  @Container
  @SuppressWarnings("resource")
  static final GenericContainer<?> AZURITE =
      new GenericContainer<>(DockerImageName.parse("mcr.microsoft.com/azure-storage/azurite:3.37.0"))
          .withCommand(
              "azurite-blob", "--blobHost", "0.0.0.0", "--blobPort", String.valueOf(BLOB_PORT),
              "--inMemoryPersistence", "--disableTelemetry", "--skipApiVersionCheck")
          .withExposedPorts(BLOB_PORT);

  private static AzureBlobObjectStore shared;

  @BeforeAll
  static void createContainerAndStore() {
    String endpoint =
        "http://" + AZURITE.getHost() + ":" + AZURITE.getMappedPort(BLOB_PORT) + "/" + AzuriteProcess.ACCOUNT;
    new BlobServiceClientBuilder()
        .endpoint(endpoint)
        .credential(new StorageSharedKeyCredential(AzuriteProcess.ACCOUNT, AzuriteProcess.KEY))
        .buildClient()
        .createBlobContainer("contract");
    shared =
        AzureBlobObjectStore.builder()
            .endpoint(endpoint)
            .sharedKey(AzuriteProcess.ACCOUNT, AzuriteProcess.KEY)
            .containerName("contract")
            .blockSize(AzureBlobObjectStoreAzuriteTests.BLOCK_SIZE)
            .build();
  }

  @AfterAll
  static void closeStore() {
    if (shared != null) {
      shared.close();
    }
  }

  @Override
  protected ObjectStore createStore() {
    return shared;
  }

  @Override
  protected void releaseStore(ObjectStore store) {
    // Shared for the class.
  }

  @Override
  protected int largeUploadSize() {
    return 6 * AzureBlobObjectStoreAzuriteTests.BLOCK_SIZE + 17;
  }
}
