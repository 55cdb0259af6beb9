package dev.objlog.spring.autoconfigure.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.autoconfigure.FailureAnalyses;
import dev.objlog.store.s3.S3ProxyServer;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.StoreException;
import dev.objlog.store.s3.S3ObjectStore;
import java.net.URI;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The s3 store against S3Proxy in process: built from properties, from an application's
 * S3Client, from connection details, and the configuration errors. The self-test runs in every
 * context that starts, so a started context has proven a round trip to the server.
 */
class S3StoreAutoConfigurationTests {
  private static final String BUCKET = "objlog-spring";

  private static S3ProxyServer server;

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class))
          .withPropertyValues("objlog.store.type=s3", "objlog.store.bucket=" + BUCKET);

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

  private String[] connectionProperties() {
    return new String[] {
      "objlog.store.s3.endpoint=" + server.endpoint(),
      "objlog.store.s3.path-style=true",
      "objlog.store.s3.access-key=" + S3ProxyServer.ACCESS_KEY,
      "objlog.store.s3.secret-key=" + S3ProxyServer.SECRET_KEY,
    };
  }

  @Test
  void buildsTheStoreFromPropertiesAndPassesTheSelfTest() {
    runner.withPropertyValues(connectionProperties()).withPropertyValues("objlog.store.s3.part-size=6MB").run(context -> {
      assertThat(context).hasNotFailed().hasSingleBean(ObjectStore.class).hasSingleBean(ObjlogStoreSelfTest.class);
      S3ObjectStore store = context.getBean(S3ObjectStore.class);
      assertThat(store.bucket()).isEqualTo(BUCKET);
      assertThat(store.partSize()).isEqualTo(6 * 1024 * 1024);
      assertThat(store.describe()).contains(BUCKET).doesNotContain(S3ProxyServer.SECRET_KEY);
      assertThat(context.getBean(ObjlogConnectionDetails.class)).isInstanceOf(PropertiesObjlogConnectionDetails.class);
      assertThat(context.getBean(ObjlogConnectionDetails.class).toString()).doesNotContain(S3ProxyServer.SECRET_KEY);
    });
  }

  @Test
  void reusesTheApplicationsS3ClientAndNeverClosesIt() {
    // No endpoint or credentials in objlog's properties: only the reused client can reach S3Proxy.
    runner.withBean(S3Client.class, server::client).run(context -> {
      assertThat(context).hasNotFailed().hasSingleBean(S3ObjectStore.class);
      context.getBean(S3ObjectStore.class).close();
      S3Client client = context.getBean(S3Client.class);
      assertThat(client.listBuckets().buckets()).extracting(b -> b.name()).contains(BUCKET);
    });
  }

  @Test
  void explicitSettingsWinOverTheApplicationsS3Client() {
    try (S3Client wrong =
        S3Client.builder()
            .endpointOverride(URI.create("http://127.0.0.1:9"))
            .region(Region.US_EAST_1)
            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("no", "no")))
            .build()) {
      runner.withPropertyValues(connectionProperties()).withBean(S3Client.class, () -> wrong).run(context -> {
        assertThat(context).hasNotFailed().hasSingleBean(S3ObjectStore.class);
      });
    }
  }

  @Test
  void connectionDetailsFromAServiceConnectionWinOverPropertiesAndClients() {
    ObjlogConnectionDetails details =
        new FixedConnectionDetails(server.endpoint(), S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY, null);
    try (S3Client wrong = S3Client.builder().region(Region.US_EAST_1).endpointOverride(URI.create("http://127.0.0.1:9")).build()) {
      runner
          .withPropertyValues("objlog.store.s3.endpoint=http://127.0.0.1:9", "objlog.store.s3.access-key=no", "objlog.store.s3.secret-key=no")
          .withBean(ObjlogConnectionDetails.class, () -> details)
          .withBean(S3Client.class, () -> wrong)
          .run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(S3ObjectStore.class);
            assertThat(context.getBean(ObjlogConnectionDetails.class)).isSameAs(details);
          });
    }
  }

  @Test
  void aBucketFromConnectionDetailsWinsOverTheProperty() {
    server.createBucket("from-details");
    ObjlogConnectionDetails details =
        new FixedConnectionDetails(server.endpoint(), S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY, "from-details");
    runner.withBean(ObjlogConnectionDetails.class, () -> details).run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(S3ObjectStore.class).bucket()).isEqualTo("from-details");
    });
  }

  @Test
  void aMissingBucketNamesTheProperty() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class))
        .withPropertyValues("objlog.store.type=s3")
        .withPropertyValues(connectionProperties())
        .run(context -> {
          assertThat(context).hasFailed();
          FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
          assertThat(analysis.getDescription()).contains("objlog.store.bucket").contains("needs a bucket");
          assertThat(analysis.getAction()).contains("Set objlog.store.bucket");
        });
  }

  @Test
  void encryptionAndSegmentStorageClassPropertiesReachEveryWrite() {
    java.util.List<software.amazon.awssdk.http.SdkHttpRequest> puts = new java.util.concurrent.CopyOnWriteArrayList<>();
    software.amazon.awssdk.core.interceptor.ExecutionInterceptor capture =
        new software.amazon.awssdk.core.interceptor.ExecutionInterceptor() {
          @Override
          public void beforeTransmission(
              software.amazon.awssdk.core.interceptor.Context.BeforeTransmission context,
              software.amazon.awssdk.core.interceptor.ExecutionAttributes attributes) {
            if (context.httpRequest().method() == software.amazon.awssdk.http.SdkHttpMethod.PUT) {
              puts.add(context.httpRequest());
            }
          }
        };
    S3Client client =
        S3Client.builder()
            .endpointOverride(server.endpoint())
            .region(Region.US_EAST_1)
            .forcePathStyle(true)
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create(S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY)))
            .overrideConfiguration(o -> o.addExecutionInterceptor(capture))
            .build();
    runner
        .withBean(S3Client.class, () -> client)
        .withPropertyValues(
            "objlog.store.s3.server-side-encryption=sse-kms",
            "objlog.store.s3.kms-key-id=alias/objlog",
            "objlog.store.segment-storage-class=INTELLIGENT_TIERING")
        .run(context -> {
          assertThat(context).hasNotFailed();
          S3ObjectStore store = context.getBean(S3ObjectStore.class);
          store.putIfAbsent("props/seg-1.plseg", new byte[] {1});
          // The self-test's scratch writes and this segment: every PUT is encrypted with the key.
          assertThat(puts).hasSizeGreaterThan(1).allSatisfy(put -> {
            assertThat(put.firstMatchingHeader("x-amz-server-side-encryption")).contains("aws:kms");
            assertThat(put.firstMatchingHeader("x-amz-server-side-encryption-aws-kms-key-id")).contains("alias/objlog");
          });
          assertThat(puts.get(puts.size() - 1).firstMatchingHeader("x-amz-storage-class")).contains("INTELLIGENT_TIERING");
          assertThat(puts.get(0).firstMatchingHeader("x-amz-storage-class")).isEmpty();
        });
    client.close();
  }

  @Test
  void aStorageClassThatNeedsARestoreFailsStartupNamingTheProperty() {
    runner.withPropertyValues(connectionProperties()).withPropertyValues("objlog.store.segment-storage-class=DEEP_ARCHIVE")
        .run(context -> {
          assertThat(context).hasFailed();
          FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
          assertThat(analysis.getDescription())
              .startsWith("Invalid objlog configuration: objlog.store.segment-storage-class")
              .contains("'DEEP_ARCHIVE'");
          assertThat(analysis.getAction()).contains("unset objlog.store.segment-storage-class");
        });
  }

  @Test
  void aKmsKeyWithoutSseKmsFailsStartup() {
    runner.withPropertyValues(connectionProperties())
        .withPropertyValues("objlog.store.s3.server-side-encryption=sse-s3", "objlog.store.s3.kms-key-id=alias/objlog")
        .run(context -> {
          assertThat(context).hasFailed();
          FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
          assertThat(analysis.getDescription())
              .startsWith("Invalid objlog configuration: objlog.store.s3.kms-key-id")
              .contains("is sse-s3");
          assertThat(analysis.getAction()).contains("objlog.store.s3.server-side-encryption=sse-kms");
        });
  }

  @Test
  void anAccessKeyWithoutASecretKeyNamesTheMissingOne() {
    runner
        .withPropertyValues("objlog.store.s3.endpoint=" + server.endpoint(), "objlog.store.s3.access-key=someone")
        .run(context -> {
          assertThat(context).hasFailed();
          FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
          assertThat(analysis.getDescription()).startsWith("Invalid objlog configuration: objlog.store.s3.secret-key");
          assertThat(analysis.getAction()).contains("objlog.store.s3.access-key", "objlog.store.s3.secret-key");
        });
  }

  @Test
  void wrongCredentialsFailTheSelfTestWithoutShowingTheSecret() {
    runner
        .withPropertyValues(
            "objlog.store.s3.endpoint=" + server.endpoint(),
            "objlog.store.s3.path-style=true",
            "objlog.store.s3.access-key=" + S3ProxyServer.ACCESS_KEY,
            "objlog.store.s3.secret-key=wrong-secret-do-not-show")
        .run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure()).isInstanceOf(StoreException.class);
          assertThat(context.getStartupFailure().toString()).doesNotContain("wrong-secret-do-not-show");
        });
  }

  /** Stands in for a service connection's details. */
  private record FixedConnectionDetails(URI endpoint, String accessKey, String secretKey, @Nullable String bucket)
      implements ObjlogConnectionDetails {

    @Override
    public URI getEndpoint() {
      return endpoint;
    }

    @Override
    public @Nullable String getRegion() {
      return null;
    }

    @Override
    public boolean isPathStyle() {
      return true;
    }

    @Override
    public String getAccessKey() {
      return accessKey;
    }

    @Override
    public String getSecretKey() {
      return secretKey;
    }

    @Override
    public @Nullable String getBucket() {
      return bucket;
    }
  }
}
