package dev.objlog.spring.autoconfigure.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.storage.blob.BlobServiceClient;
import com.google.cloud.storage.Storage;
import dev.objlog.spring.autoconfigure.FailureAnalyses;
import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import dev.objlog.store.s3.S3ObjectStore;
import dev.objlog.store.s3.S3ProxyServer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * An unset objlog.store.type is not "filesystem": with no bucket or container it is the embedded
 * filesystem default; with a bucket it is the one fitting provider SDK on the classpath, and
 * startup fails when there is none or several. The inferred s3 store runs against S3Proxy.
 */
class UnsetStoreTypeTests {
  private static final String BUCKET = "objlog-unset-type";
  private static S3ProxyServer server;

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class));

  @TempDir Path root;

  @BeforeAll
  static void startServer() {
    server = S3ProxyServer.start(false);
    server.createBucket(BUCKET);
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void noTypeAndNoBucketIsTheEmbeddedFilesystemStore() {
    runner.withPropertyValues("objlog.store.filesystem.root=" + root).run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(ObjectStore.class)).isInstanceOf(FilesystemObjectStore.class);
      assertThat(context.getBean(ObjectStore.class).describe()).contains(root.toString());
    });
  }

  @Test
  void aBucketWithEveryProviderSdkOnTheClasspathFailsNamingTheTypeAndTheSdks() {
    runner.withPropertyValues("objlog.store.bucket=" + BUCKET, "objlog.store.filesystem.root=" + root).run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).hasRootCauseInstanceOf(ObjlogConfigurationException.class);
      FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
      assertThat(analysis.getDescription())
          .startsWith("Invalid objlog configuration: objlog.store.type: ")
          .contains("objlog.store.bucket is set but objlog.store.type is not")
          .contains("software.amazon.awssdk:s3 (s3)", "com.google.cloud:google-cloud-storage (gcs)",
              "com.azure:azure-storage-blob (azure)")
          .contains("ambiguous");
      assertThat(analysis.getAction()).startsWith("Set objlog.store.type to s3, gcs or azure");
      assertThat(root).isEmptyDirectory();
    });
  }

  @Test
  void aBucketWithNoProviderSdkFailsInsteadOfWritingToTheFilesystem() {
    runner
        .withClassLoader(new FilteredClassLoader(S3Client.class, Storage.class, BlobServiceClient.class))
        .withPropertyValues("objlog.store.bucket=" + BUCKET, "objlog.store.filesystem.root=" + root)
        .run(context -> {
          assertThat(context).hasFailed();
          FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
          assertThat(analysis.getDescription())
              .startsWith("Invalid objlog configuration: objlog.store.type: ")
              .contains("none of the provider SDKs is on the classpath")
              .contains("does not fall back to the filesystem store");
          assertThat(root).isEmptyDirectory();
        });
  }

  @Test
  void aContainerNeedsTheAzureSdkEvenWhenAnotherIsPresent() {
    runner
        .withClassLoader(new FilteredClassLoader(Storage.class, BlobServiceClient.class))
        .withPropertyValues("objlog.store.container=logs")
        .run(context -> {
          assertThat(context).hasFailed();
          FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
          assertThat(analysis.getDescription())
              .contains("objlog.store.container is set but objlog.store.type is not")
              .contains("the provider SDKs on the classpath are software.amazon.awssdk:s3 (s3)")
              .contains("a container is for azure");
        });
  }

  @Test
  void aBucketWithOnlyTheS3SdkIsAnS3Store() {
    runner
        .withClassLoader(new FilteredClassLoader(Storage.class, BlobServiceClient.class))
        .withPropertyValues(
            "objlog.store.bucket=" + BUCKET,
            "objlog.store.s3.endpoint=" + server.endpoint(),
            "objlog.store.s3.path-style=true",
            "objlog.store.s3.access-key=" + S3ProxyServer.ACCESS_KEY,
            "objlog.store.s3.secret-key=" + S3ProxyServer.SECRET_KEY)
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean(ObjectStore.class)).isInstanceOf(S3ObjectStore.class);
          assertThat(((S3ObjectStore) context.getBean(ObjectStore.class)).bucket()).isEqualTo(BUCKET);
        });
  }

  @Test
  void anExplicitTypeStillWinsOverTheClasspath() {
    runner
        .withPropertyValues("objlog.store.type=filesystem", "objlog.store.bucket=ignored", "objlog.store.filesystem.root=" + root)
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean(ObjectStore.class)).isInstanceOf(FilesystemObjectStore.class);
        });
  }
}
