package dev.objlog.spring.autoconfigure.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.storage.blob.BlobServiceClient;
import com.google.cloud.storage.Storage;
import dev.objlog.spring.autoconfigure.FailureAnalyses;
import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.memory.MemoryObjectStore;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import software.amazon.awssdk.services.s3.S3Client;

/** Each provider SDK is optional: without it, its store type explains what to add; others work. */
class MissingProviderSdkTests {

  @ParameterizedTest(name = "without {1}")
  @CsvSource({
    "s3, software.amazon.awssdk:s3",
    "gcs, com.google.cloud:google-cloud-storage",
    "azure, com.azure:azure-storage-blob",
  })
  void theStoreTypeOfAMissingSdkSaysWhatToAdd(String type, String artifact) {
    runnerWithout(type)
        .withPropertyValues("objlog.store.type=" + type, "objlog.store.bucket=b", "objlog.store.container=c")
        .run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure()).hasRootCauseInstanceOf(ObjlogConfigurationException.class);
          FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
          assertThat(analysis.getDescription())
              .startsWith("Invalid objlog configuration: objlog.store.type")
              .contains("objlog.store.type=" + type + " needs " + artifact);
          assertThat(analysis.getAction()).startsWith("Add " + artifact + " to use objlog.store.type=" + type);
        });
  }

  @ParameterizedTest(name = "without the {0} SDK")
  @CsvSource({"s3", "gcs", "azure"})
  void otherStoreTypesStillWork(String missing) {
    runnerWithout(missing).withPropertyValues("objlog.store.type=memory").run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(ObjectStore.class)).isInstanceOf(MemoryObjectStore.class);
    });
  }

  private static ApplicationContextRunner runnerWithout(String type) {
    Class<?> sdk =
        switch (type) {
          case "s3" -> S3Client.class;
          case "gcs" -> Storage.class;
          case "azure" -> BlobServiceClient.class;
          default -> throw new IllegalArgumentException(type);
        };
    return new ApplicationContextRunner()
        .withClassLoader(new FilteredClassLoader(sdk))
        .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class));
  }
}
