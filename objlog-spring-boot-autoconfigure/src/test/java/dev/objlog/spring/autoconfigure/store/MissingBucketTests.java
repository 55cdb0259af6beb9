package dev.objlog.spring.autoconfigure.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.google.cloud.storage.Storage;
import dev.objlog.spring.autoconfigure.FailureAnalyses;
import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.azure.AzureBlobObjectStore;
import dev.objlog.store.azure.AzuriteAccess;
import dev.objlog.store.gcs.FakeGcsAccess;
import dev.objlog.store.gcs.GcsObjectStore;
import dev.objlog.store.s3.S3ProxyServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.UserConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A bucket or container that does not exist stops startup with a message saying what to create,
 * on S3Proxy, Azurite and our GCS test server, with the conditional-write self-test on and off: the
 * bucket check is a startup step of its own. A bucket created while the context is built (as a
 * test's bean does) exists by the time the check runs.
 */
class MissingBucketTests {
  private static S3ProxyServer s3;
  private static FakeGcsAccess gcs;
  private static AzuriteAccess azurite;

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class));

  @BeforeAll
  static void startServers() throws Exception {
    s3 = S3ProxyServer.start(false);
    gcs = FakeGcsAccess.start();
    if (AzuriteAccess.installed()) {
      azurite = AzuriteAccess.start();
    }
  }

  @AfterAll
  static void stopServers() throws Exception {
    if (s3 != null) {
      s3.close();
    }
    if (gcs != null) {
      gcs.close();
    }
    if (azurite != null) {
      azurite.close();
    }
  }

  @ParameterizedTest(name = "self-test on: {0}")
  @ValueSource(booleans = {true, false})
  void aMissingS3BucketSaysWhatToCreate(boolean selfTest) {
    s3Runner("no-such-bucket", selfTest).run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).isInstanceOf(ObjlogConfigurationException.class);
      FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
      assertThat(analysis.getDescription())
          .startsWith("Invalid objlog configuration: objlog.store.bucket: the bucket 'no-such-bucket' does not exist");
      assertThat(analysis.getAction()).startsWith("Create the bucket 'no-such-bucket' (objlog never creates buckets)");
    });
  }

  @ParameterizedTest(name = "self-test on: {0}")
  @ValueSource(booleans = {true, false})
  void aMissingGcsBucketSaysWhatToCreate(boolean selfTest) {
    gcsRunner("no-such-bucket", selfTest).run(context -> {
      assertThat(context).hasFailed();
      FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
      assertThat(analysis.getDescription())
          .startsWith("Invalid objlog configuration: objlog.store.bucket: the bucket 'no-such-bucket' does not exist");
      assertThat(analysis.getAction()).startsWith("Create the bucket 'no-such-bucket'");
    });
  }

  @ParameterizedTest(name = "self-test on: {0}")
  @ValueSource(booleans = {true, false})
  void aMissingAzureContainerSaysWhatToCreate(boolean selfTest) {
    org.junit.jupiter.api.Assumptions.assumeTrue(azurite != null, "Azurite is not installed (npm ci in test-infra/azurite)");
    azureRunner("no-such-container", selfTest).run(context -> {
      assertThat(context).hasFailed();
      FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
      assertThat(analysis.getDescription()).startsWith(
          "Invalid objlog configuration: objlog.store.container: the container 'no-such-container' does not exist");
      assertThat(analysis.getAction()).startsWith("Create the container 'no-such-container' (objlog never creates containers)");
    });
  }

  @org.junit.jupiter.api.Test
  void theBucketCheckHasItsOwnSwitch() {
    s3Runner("never-created", false).withPropertyValues("objlog.store.verify-bucket=false").run(context -> {
      assertThat(context).hasNotFailed().doesNotHaveBean(ObjlogStoreBucketCheck.class);
    });
    s3Runner("never-created", false).run(context -> assertThat(context).hasFailed());
  }

  @ParameterizedTest(name = "self-test on: {0}")
  @ValueSource(booleans = {true, false})
  void anExistingBucketOrContainerStartsOnEveryProvider(boolean selfTest) throws Exception {
    String name = "exists-" + selfTest;
    s3.createBucket(name);
    s3Runner(name, selfTest).run(context -> assertThat(context).hasNotFailed());
    gcs.createBucket(name);
    gcsRunner(name, selfTest).run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(ObjectStore.class)).isInstanceOf(GcsObjectStore.class);
    });
    if (azurite != null) {
      serviceClient().createBlobContainer(name);
      azureRunner(name, selfTest).run(context -> {
        assertThat(context).hasNotFailed();
        assertThat(context.getBean(ObjectStore.class)).isInstanceOf(AzureBlobObjectStore.class);
      });
    }
  }

  @ParameterizedTest(name = "self-test on: {0}")
  @ValueSource(booleans = {true, false})
  void aBucketCreatedWhileTheContextIsBuiltPassesTheCheck(boolean selfTest) {
    String name = "created-by-a-bean-" + selfTest;
    s3Runner(name, selfTest)
        .withConfiguration(UserConfigurations.of(CreatesTheBucket.class))
        .withPropertyValues("test.bucket=" + name)
        .run(context -> assertThat(context).hasNotFailed());
  }

  /** What a test's setup does: create the bucket as a bean, before the startup checks run. */
  @Configuration(proxyBeanMethods = false)
  static class CreatesTheBucket {
    @Bean
    Object bucketCreator(org.springframework.core.env.Environment environment) {
      s3.createBucket(environment.getRequiredProperty("test.bucket"));
      return new Object();
    }
  }

  @ParameterizedTest(name = "with type unset: {0}")
  @ValueSource(strings = {"gcs", "azure"})
  void theInferredProviderChecksItsBucketToo(String provider) {
    if (provider.equals("gcs")) {
      runner
          .withClassLoader(new FilteredClassLoader(S3Client.class, BlobServiceClient.class))
          .withPropertyValues("objlog.store.bucket=inferred-missing")
          .withBean(Storage.class, this::gcsStorage)
          .run(context -> {
            assertThat(context).hasFailed();
            assertThat(FailureAnalyses.analyze(context.getStartupFailure()).getDescription())
                .contains("the bucket 'inferred-missing' does not exist");
          });
    } else {
      org.junit.jupiter.api.Assumptions.assumeTrue(azurite != null, "Azurite is not installed");
      runner
          .withClassLoader(new FilteredClassLoader(S3Client.class, Storage.class))
          .withPropertyValues("objlog.store.container=inferred-missing",
              "objlog.store.azure.endpoint=" + azurite.endpoint(),
              "objlog.store.azure.account-name=" + AzuriteAccess.ACCOUNT,
              "objlog.store.azure.account-key=" + AzuriteAccess.KEY)
          .run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).isInstanceOf(ObjlogConfigurationException.class);
            assertThat(FailureAnalyses.analyze(context.getStartupFailure()).getDescription())
                .contains("the container 'inferred-missing' does not exist");
          });
    }
  }

  private ApplicationContextRunner s3Runner(String bucket, boolean selfTest) {
    return runner.withPropertyValues(
        "objlog.store.type=s3",
        "objlog.store.bucket=" + bucket,
        "objlog.store.verify-conditional-writes=" + selfTest,
        "objlog.store.s3.endpoint=" + s3.endpoint(),
        "objlog.store.s3.path-style=true",
        "objlog.store.s3.access-key=" + S3ProxyServer.ACCESS_KEY,
        "objlog.store.s3.secret-key=" + S3ProxyServer.SECRET_KEY);
  }

  private ApplicationContextRunner gcsRunner(String bucket, boolean selfTest) {
    return runner
        .withPropertyValues(
            "objlog.store.type=gcs",
            "objlog.store.bucket=" + bucket,
            "objlog.store.verify-conditional-writes=" + selfTest)
        .withBean(Storage.class, this::gcsStorage);
  }

  private Storage gcsStorage() {
    return com.google.cloud.storage.StorageOptions.newBuilder()
        .setHost(gcs.host())
        .setProjectId("test")
        .setCredentials(com.google.cloud.NoCredentials.getInstance())
        .build()
        .getService();
  }

  private ApplicationContextRunner azureRunner(String container, boolean selfTest) {
    return runner.withPropertyValues(
        "objlog.store.type=azure",
        "objlog.store.container=" + container,
        "objlog.store.verify-conditional-writes=" + selfTest,
        "objlog.store.azure.endpoint=" + azurite.endpoint(),
        "objlog.store.azure.account-name=" + AzuriteAccess.ACCOUNT,
        "objlog.store.azure.account-key=" + AzuriteAccess.KEY);
  }

  private BlobServiceClient serviceClient() {
    return new BlobServiceClientBuilder()
        .endpoint(azurite.endpoint())
        .credential(new StorageSharedKeyCredential(AzuriteAccess.ACCOUNT, AzuriteAccess.KEY))
        .buildClient();
  }
}
