package dev.objlog.spring.autoconfigure.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.store.s3.S3ProxyServer;
import dev.objlog.spring.autoconfigure.store.ObjlogConnectionDetails;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.store.s3.S3ObjectStore;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetailsFactories;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionSource;
import org.springframework.boot.testcontainers.service.connection.TestContainerConnectionSources;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.MinIOContainer;

/**
 * The MinIO service connection without a Docker engine: a MinIOContainer that is never started
 * and answers with S3Proxy's address and credentials goes through Boot's own factory lookup
 * (spring.factories), and the details it yields drive the s3 store, self-test included.
 */
class MinioObjlogContainerConnectionDetailsFactoryTests {

  @Test
  void aMinioContainerYieldsPathStyleDetailsWithItsCredentials() throws Exception {
    ObjlogConnectionDetails details = detailsFor(new UnstartedMinio("http://127.0.0.1:19000", "user-1", "password-1"));
    assertThat(details.getEndpoint()).isEqualTo(URI.create("http://127.0.0.1:19000"));
    assertThat(details.isPathStyle()).isTrue();
    assertThat(details.getAccessKey()).isEqualTo("user-1");
    assertThat(details.getSecretKey()).isEqualTo("password-1");
    assertThat(details.getRegion()).isNull();
    assertThat(details.getBucket()).isNull();
  }

  @Test
  void theDetailsDriveTheS3Store() throws Exception {
    try (S3ProxyServer server = S3ProxyServer.start(false)) {
      server.createBucket("from-minio");
      ObjlogConnectionDetails details = detailsOn(server);
      storeWith(details, "objlog.store.type=s3", "objlog.store.bucket=from-minio")
          .run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(S3ObjectStore.class).bucket()).isEqualTo("from-minio");
          });
    }
  }

  @Test
  void theServiceConnectionCreatesTheMissingBucketBeforeTheStoreSelfTest() throws Exception {
    try (S3ProxyServer server = S3ProxyServer.start(false)) {
      ObjlogConnectionDetails details = detailsOn(server);
      storeWith(details, "objlog.store.type=s3", "objlog.store.bucket=made-for-the-test")
          .run(context -> {
            // The self-test wrote to the bucket at startup: it existed by then.
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(S3ObjectStore.class).bucket()).isEqualTo("made-for-the-test");
          });
      try (var client = server.client()) {
        assertThat(client.listBuckets().buckets()).extracting(b -> b.name()).contains("made-for-the-test");
      }
    }
  }

  @Test
  void anExistingBucketIsKeptWithItsObjects() throws Exception {
    try (S3ProxyServer server = S3ProxyServer.start(false); var client = server.client()) {
      server.createBucket("kept");
      client.putObject(b -> b.bucket("kept").key("before"), software.amazon.awssdk.core.sync.RequestBody.fromString("x"));
      ObjlogConnectionDetails details = detailsOn(server);
      storeWith(details, "objlog.store.type=s3", "objlog.store.bucket=kept")
          .run(context -> assertThat(context).hasNotFailed());
      assertThat(client.getObjectAsBytes(b -> b.bucket("kept").key("before")).asUtf8String()).isEqualTo("x");
    }
  }

  @Test
  void noBucketIsCreatedUnlessTheStoreIsS3() throws Exception {
    try (S3ProxyServer server = S3ProxyServer.start(false); var client = server.client()) {
      ObjlogConnectionDetails details = detailsOn(server);
      storeWith(details, "objlog.store.type=memory", "objlog.store.bucket=not-for-memory")
          .run(context -> assertThat(context).hasNotFailed());
      assertThat(client.listBuckets().buckets()).isEmpty();
    }
  }

  @Test
  void aBucketThatCannotBeCreatedStopsStartupNamingTheServer() throws Exception {
    try (S3ProxyServer server = S3ProxyServer.start(false)) {
      ObjlogConnectionDetails details =
          detailsFor(new UnstartedMinio(server.endpoint().toString(), S3ProxyServer.ACCESS_KEY, "not-the-secret"));
      storeWith(details, "objlog.store.type=s3", "objlog.store.bucket=refused")
          .run(context -> {
            assertThat(context).getFailure().hasStackTraceContaining(
                "cannot tell whether bucket 'refused' exists on the development S3 server " + server.endpoint()
                    + " (HTTP 403)");
            assertThat(context.getStartupFailure()).rootCause()
                .isInstanceOf(software.amazon.awssdk.services.s3.model.S3Exception.class);
          });
    }
  }

  @Test
  void otherContainersGetNoObjlogDetails() {
    ContainerConnectionSource<GenericContainer<?>> source =
        TestContainerConnectionSources.of(genericType(), "redis:7", () -> new GenericContainer<>("redis:7"));
    Map<Class<?>, ConnectionDetails> found =
        new ConnectionDetailsFactories(getClass().getClassLoader()).getConnectionDetails(source, false);
    assertThat(found).doesNotContainKey(ObjlogConnectionDetails.class);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Class<GenericContainer<?>> genericType() {
    return (Class) GenericContainer.class;
  }

  /** The details of a container that answers with S3Proxy's address and credentials. */
  private static ObjlogConnectionDetails detailsOn(S3ProxyServer server) throws Exception {
    return detailsFor(new UnstartedMinio(server.endpoint().toString(), S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY));
  }

  /** The store auto-configuration with {@code details} as its connection details bean. */
  private static ApplicationContextRunner storeWith(ObjlogConnectionDetails details, String... properties) {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class))
        .withPropertyValues(properties)
        .withBean(ObjlogConnectionDetails.class, () -> details);
  }

  /** Runs Boot's factory lookup as a {@code @ServiceConnection} field would. */
  private static ObjlogConnectionDetails detailsFor(MinIOContainer container) throws Exception {
    ContainerConnectionSource<MinIOContainer> source =
        TestContainerConnectionSources.of(MinIOContainer.class, "minio/minio:RELEASE.2025-04-22T22-12-26Z", () -> container);
    Map<Class<?>, ConnectionDetails> found =
        new ConnectionDetailsFactories(MinioObjlogContainerConnectionDetailsFactoryTests.class.getClassLoader())
            .getConnectionDetails(source, true);
    assertThat(found).containsKey(ObjlogConnectionDetails.class);
    ConnectionDetails details = found.get(ObjlogConnectionDetails.class);
    ((InitializingBean) details).afterPropertiesSet();
    return (ObjlogConnectionDetails) details;
  }

  /** A MinIOContainer that is never started: it answers with a given URL and credentials. */
  private static final class UnstartedMinio extends MinIOContainer {
    private final String url;

    UnstartedMinio(String url, String user, String password) {
      super("minio/minio:RELEASE.2025-04-22T22-12-26Z");
      this.url = url;
      withUserName(user);
      withPassword(password);
    }

    @Override
    public void start() {}

    @Override
    public boolean isRunning() {
      return true;
    }

    @Override
    public String getS3URL() {
      return url;
    }
  }
}
