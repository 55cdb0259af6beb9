package dev.objlog.spring.autoconfigure.docker.compose;

import dev.objlog.spring.autoconfigure.store.DevelopmentBucket;
import dev.objlog.spring.autoconfigure.store.ObjlogConnectionDetails;
import java.net.URI;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.docker.compose.core.RunningService;
import org.springframework.boot.docker.compose.service.connection.DockerComposeConnectionDetailsFactory;
import org.springframework.boot.docker.compose.service.connection.DockerComposeConnectionSource;
import org.springframework.core.env.Environment;

/**
 * {@link ObjlogConnectionDetails} for a Docker Compose service running a MinIO image ({@code
 * minio/minio}, or another image labelled {@code org.springframework.boot.service-connection:
 * minio/minio}): its published port 9000 on the Docker host, path-style addressing, and the {@code
 * MINIO_ROOT_USER} and {@code MINIO_ROOT_PASSWORD} of its environment as static credentials
 * ({@code minioadmin} each when unset, as MinIO itself defaults). The bucket comes from {@code
 * objlog.store.bucket}; with {@code objlog.store.type=s3} it is created when missing ({@link
 * DevelopmentBucket}), as the details bean is initialized, before the store is built and
 * self-tested.
 */
class MinioObjlogDockerComposeConnectionDetailsFactory
    extends DockerComposeConnectionDetailsFactory<ObjlogConnectionDetails> {
  static final int S3_PORT = 9000;
  private static final String DEFAULT_CREDENTIAL = "minioadmin";

  MinioObjlogDockerComposeConnectionDetailsFactory() {
    super("minio/minio");
  }

  @Override
  protected ObjlogConnectionDetails getDockerComposeConnectionDetails(DockerComposeConnectionSource source) {
    return new MinioObjlogDockerComposeConnectionDetails(source.getRunningService(), source.getEnvironment());
  }

  static final class MinioObjlogDockerComposeConnectionDetails extends DockerComposeConnectionDetails
      implements ObjlogConnectionDetails, InitializingBean {
    private final URI endpoint;
    private final String accessKey;
    private final String secretKey;
    private final Environment environment;

    MinioObjlogDockerComposeConnectionDetails(RunningService service, Environment environment) {
      super(service);
      Map<String, String> env = service.env();
      this.endpoint = URI.create("http://" + service.host() + ":" + service.ports().get(S3_PORT));
      this.accessKey = env.getOrDefault("MINIO_ROOT_USER", DEFAULT_CREDENTIAL);
      this.secretKey = env.getOrDefault("MINIO_ROOT_PASSWORD", DEFAULT_CREDENTIAL);
      this.environment = environment;
    }

    @Override
    public void afterPropertiesSet() {
      DevelopmentBucket.createIfMissing(this, environment);
    }

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
    public String toString() {
      return "MinioObjlogDockerComposeConnectionDetails[endpoint=" + endpoint + ", accessKey=***]";
    }
  }
}
