package dev.objlog.spring.autoconfigure.docker.compose;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.autoconfigure.store.ObjlogConnectionDetails;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.store.s3.S3ObjectStore;
import dev.objlog.store.s3.S3ProxyServer;
import java.lang.reflect.Constructor;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetailsFactories;
import org.springframework.boot.docker.compose.core.ConnectionPorts;
import org.springframework.boot.docker.compose.core.ImageReference;
import org.springframework.boot.docker.compose.core.RunningService;
import org.springframework.boot.docker.compose.service.connection.DockerComposeConnectionSource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.Environment;
import org.springframework.mock.env.MockEnvironment;

/**
 * The Docker Compose service connection without Docker: a running "minio" service as Boot
 * describes it, whose published port is S3Proxy's, goes through Boot's own factory lookup
 * (spring.factories), and its details create the bucket and drive the s3 store. The sample app's
 * compose.yaml runs for real in its ComposeMinioTests where Docker exists.
 */
class MinioObjlogDockerComposeConnectionDetailsFactoryTests {

  @Test
  void aMinioServiceYieldsItsPublishedPortAndRootCredentials() throws Exception {
    ObjlogConnectionDetails details = detailsFor(
        new Service("minio/minio:RELEASE.2025-04-22T22-12-26Z", 19000, Map.of("MINIO_ROOT_USER", "user-1",
            "MINIO_ROOT_PASSWORD", "password-1")), new MockEnvironment());
    assertThat(details.getEndpoint()).isEqualTo(URI.create("http://127.0.0.1:19000"));
    assertThat(details.isPathStyle()).isTrue();
    assertThat(details.getAccessKey()).isEqualTo("user-1");
    assertThat(details.getSecretKey()).isEqualTo("password-1");
    assertThat(details.getRegion()).isNull();
    assertThat(details.getBucket()).isNull();
    assertThat(details.toString()).doesNotContain("password-1");
  }

  @Test
  void withoutRootCredentialsMiniosDefaultsAreUsed() throws Exception {
    ObjlogConnectionDetails details = detailsFor(new Service("minio/minio", 19000, Map.of()), new MockEnvironment());
    assertThat(details.getAccessKey()).isEqualTo("minioadmin");
    assertThat(details.getSecretKey()).isEqualTo("minioadmin");
  }

  @Test
  void otherServicesGetNoObjlogDetails() throws Exception {
    Map<Class<?>, ConnectionDetails> found = new ConnectionDetailsFactories(getClass().getClassLoader())
        .getConnectionDetails(source(new Service("redis:7", 6379, Map.of()), new MockEnvironment()), false);
    assertThat(found).doesNotContainKey(ObjlogConnectionDetails.class);
  }

  @Test
  void theDetailsCreateTheBucketAndDriveTheS3Store() throws Exception {
    try (S3ProxyServer server = S3ProxyServer.start(false); var client = server.client()) {
      MockEnvironment environment =
          new MockEnvironment().withProperty("objlog.store.type", "s3").withProperty("objlog.store.bucket", "from-compose");
      ObjlogConnectionDetails details = detailsFor(new Service("minio/minio", server.endpoint().getPort(),
          Map.of("MINIO_ROOT_USER", S3ProxyServer.ACCESS_KEY, "MINIO_ROOT_PASSWORD", S3ProxyServer.SECRET_KEY)),
          environment);
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class))
          .withPropertyValues("objlog.store.type=s3", "objlog.store.bucket=from-compose")
          .withBean(ObjlogConnectionDetails.class, () -> details)
          .run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(S3ObjectStore.class).bucket()).isEqualTo("from-compose");
          });
      assertThat(client.listBuckets().buckets()).extracting(b -> b.name()).containsExactly("from-compose");
    }
  }

  /** Runs Boot's factory lookup as its Docker Compose support does once the services are up. */
  private static ObjlogConnectionDetails detailsFor(RunningService service, Environment environment) throws Exception {
    Map<Class<?>, ConnectionDetails> found = new ConnectionDetailsFactories(
        MinioObjlogDockerComposeConnectionDetailsFactoryTests.class.getClassLoader())
        .getConnectionDetails(source(service, environment), true);
    assertThat(found).containsKey(ObjlogConnectionDetails.class);
    return (ObjlogConnectionDetails) found.get(ObjlogConnectionDetails.class);
  }

  /** Boot makes these itself (the constructor is not public); a test has to reach it. */
  private static DockerComposeConnectionSource source(RunningService service, Environment environment) throws Exception {
    Constructor<DockerComposeConnectionSource> constructor =
        DockerComposeConnectionSource.class.getDeclaredConstructor(RunningService.class, Environment.class);
    constructor.setAccessible(true);
    return constructor.newInstance(service, environment);
  }

  /** A service as `docker compose ps` shows it: one published port for the container's port. */
  private record Service(String imageName, int publishedPort, Map<String, String> env) implements RunningService {
    @Override
    public String name() {
      return "minio";
    }

    @Override
    public ImageReference image() {
      return ImageReference.of(imageName);
    }

    @Override
    public String host() {
      return "127.0.0.1";
    }

    @Override
    public ConnectionPorts ports() {
      int containerPort = imageName.startsWith("redis") ? 6379 : MinioObjlogDockerComposeConnectionDetailsFactory.S3_PORT;
      return new ConnectionPorts() {
        @Override
        public int get(int port) {
          if (port != containerPort) {
            throw new IllegalStateException("no host port for " + port);
          }
          return publishedPort;
        }

        @Override
        public List<Integer> getAll() {
          return List.of(publishedPort);
        }

        @Override
        public List<Integer> getAll(String protocol) {
          return List.of(publishedPort);
        }
      };
    }

    @Override
    public Map<String, String> labels() {
      return Map.of();
    }
  }
}
