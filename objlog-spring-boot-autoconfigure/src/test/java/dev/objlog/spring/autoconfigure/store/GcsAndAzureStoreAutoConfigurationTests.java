package dev.objlog.spring.autoconfigure.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.google.cloud.NoCredentials;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import dev.objlog.spring.autoconfigure.FailureAnalyses;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.azure.AzureBlobObjectStore;
import dev.objlog.store.gcs.GcsObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Which gcs and azure store gets built, and their configuration errors. Building a store opens no
 * connection, so these run without servers and with the startup checks (bucket, self-test) off;
 * MissingBucketTests and the engine's own tests run both stores against real protocol servers.
 */
class GcsAndAzureStoreAutoConfigurationTests {
  /** Azurite's documented development account key. */
  private static final String AZURITE_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class))
          .withPropertyValues("objlog.store.verify-conditional-writes=false", "objlog.store.verify-bucket=false");

  @TempDir Path temp;

  @Test
  void gcsReusesTheApplicationsStorage() {
    Storage storage =
        StorageOptions.newBuilder()
            .setProjectId("objlog-test")
            .setHost("http://127.0.0.1:9")
            .setCredentials(NoCredentials.getInstance())
            .build()
            .getService();
    runner
        .withPropertyValues("objlog.store.type=gcs", "objlog.store.bucket=logs", "objlog.store.gcs.upload-chunk-size=512KB")
        .withBean(Storage.class, () -> storage)
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(ObjectStore.class);
          assertThat(context.getBean(ObjectStore.class)).isInstanceOf(GcsObjectStore.class);
          assertThat(context.getBean(ObjectStore.class).describe()).contains("logs");
        });
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = ';',
      value = {
        "objlog.store.gcs.kms-key-name=my-key; objlog.store.gcs.kms-key-name; is not a Cloud KMS key name",
        "objlog.store.segment-storage-class=GLACIER; objlog.store.segment-storage-class; GLACIER' is not a storage class",
      })
  void gcsEncryptionAndStorageClassMistakesFailStartup(String property, String named, String says) {
    runner.withPropertyValues("objlog.store.type=gcs", "objlog.store.bucket=b", "objlog.store.gcs.host=http://127.0.0.1:9", property)
        .run(context -> {
          assertThat(context).hasFailed();
          FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
          assertThat(analysis.getDescription()).startsWith("Invalid objlog configuration: " + named).contains(says);
        });
  }

  @Test
  void gcsNeedsABucket() {
    runner.withPropertyValues("objlog.store.type=gcs").run(context -> {
      assertThat(context).hasFailed();
      FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
      assertThat(analysis.getDescription()).contains("objlog.store.bucket").contains("objlog.store.type=gcs needs a bucket");
    });
  }

  @Test
  void gcsCredentialsThatCannotBeReadNameThePropertyButNotTheContent() throws Exception {
    Path key = Files.writeString(temp.resolve("key.json"), "{\"type\":\"service_account\",\"private_key\":\"SECRET-PEM\"}");
    runner
        .withPropertyValues(
            "objlog.store.type=gcs", "objlog.store.bucket=logs", "objlog.store.gcs.credentials-location=file:" + key)
        .run(context -> {
          assertThat(context).hasFailed();
          FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
          assertThat(analysis.getDescription()).contains("objlog.store.gcs.credentials-location").doesNotContain("SECRET-PEM");
        });
    runner
        .withPropertyValues(
            "objlog.store.type=gcs", "objlog.store.bucket=logs", "objlog.store.gcs.credentials-location=file:" + temp.resolve("absent.json"))
        .run(context -> {
          assertThat(context).hasFailed();
          assertThat(FailureAnalyses.analyze(context.getStartupFailure()).getDescription())
              .contains("objlog.store.gcs.credentials-location");
        });
  }

  @Test
  void azureFromEndpointAndSharedKey() {
    runner
        .withPropertyValues(
            "objlog.store.type=azure",
            "objlog.store.container=logs",
            "objlog.store.azure.endpoint=http://127.0.0.1:10000/devstoreaccount1",
            "objlog.store.azure.account-name=devstoreaccount1",
            "objlog.store.azure.account-key=" + AZURITE_KEY,
            "objlog.store.azure.block-size=4MB")
        .run(context -> {
          assertThat(context).hasNotFailed();
          ObjectStore store = context.getBean(ObjectStore.class);
          assertThat(store).isInstanceOf(AzureBlobObjectStore.class);
          assertThat(store.describe()).contains("logs").doesNotContain(AZURITE_KEY);
        });
  }

  @Test
  void azureReusesTheApplicationsBlobServiceClient() {
    BlobServiceClient client =
        new BlobServiceClientBuilder()
            .endpoint("http://127.0.0.1:10000/devstoreaccount1")
            .credential(new StorageSharedKeyCredential("devstoreaccount1", AZURITE_KEY))
            .buildClient();
    runner
        .withPropertyValues("objlog.store.type=azure", "objlog.store.container=logs")
        .withBean(BlobServiceClient.class, () -> client)
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean(ObjectStore.class)).isInstanceOf(AzureBlobObjectStore.class);
        });
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = ';',
      value = {
        "objlog.store.azure.endpoint=http://127.0.0.1:10000/a; objlog.store.container; needs a blob container",
        "objlog.store.container=logs; objlog.store.azure.endpoint; needs a way to reach the storage account",
        "objlog.store.container=logs,objlog.store.azure.endpoint=http://h/a,objlog.store.azure.connection-string=x;"
            + " objlog.store.azure.connection-string; both",
        "objlog.store.container=logs,objlog.store.azure.endpoint=http://h/a,objlog.store.azure.account-name=a;"
            + " objlog.store.azure.account-key; both an account name and an account key",
        "objlog.store.container=logs,objlog.store.azure.account-name=a,objlog.store.azure.account-key=k;"
            + " objlog.store.azure.endpoint; no endpoint",
        "objlog.store.container=logs,objlog.store.azure.endpoint=http://h/a,objlog.store.segment-storage-class=Archive;"
            + " objlog.store.segment-storage-class; Archive' is not a storage class objlog can write Azure segments with",
      })
  void azureConfigurationErrorsNameTheProperty(String properties, String property, String says) {
    runner
        .withPropertyValues("objlog.store.type=azure")
        .withPropertyValues(properties.split(","))
        .run(context -> {
          assertThat(context).hasFailed();
          FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
          assertThat(analysis.getDescription()).startsWith("Invalid objlog configuration: " + property).contains(says);
        });
  }
}
