package dev.objlog.spring.autoconfigure;

import java.net.URI;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import org.junit.jupiter.api.Assumptions;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * An in-process S3Proxy on 127.0.0.1 (ephemeral port, in-memory backend, SigV4), as the engine's
 * S3 tests start it. These tests only run the sequential self-test on single keys, so they need
 * neither of the engine's test wrappers (flat keys for nested names, atomic If-Match under
 * races).
 */
public final class S3ProxyFixture implements AutoCloseable {
  public static final String ACCESS_KEY = "objlog-spring-access";
  public static final String SECRET_KEY = "objlog-spring-secret-do-not-leak";

  private final S3Proxy proxy;
  private final BlobStore blobStore;
  private final URI endpoint;

  private S3ProxyFixture(S3Proxy proxy, BlobStore blobStore, URI endpoint) {
    this.proxy = proxy;
    this.blobStore = blobStore;
    this.endpoint = endpoint;
  }

  /** Starts a server; skips the calling tests when that fails, except under {@code CI=true}. */
  public static S3ProxyFixture start() {
    BlobStore blobStore = new TransientNio2BlobStore();
    S3Proxy proxy =
        S3Proxy.builder()
            .blobStore(blobStore)
            .endpoint(URI.create("http://127.0.0.1:0"))
            .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
            .build();
    try {
      proxy.start();
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (!"STARTED".equals(proxy.getState())) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("S3Proxy did not start within 30 s: " + proxy.getState());
        }
        Thread.sleep(10);
      }
    } catch (Exception e) {
      stopQuietly(proxy);
      if ("true".equals(System.getenv("CI"))) {
        throw new AssertionError("S3Proxy could not be started (required under CI=true)", e);
      }
      Assumptions.abort("S3Proxy could not be started, skipping: " + e);
    }
    return new S3ProxyFixture(proxy, blobStore, URI.create("http://127.0.0.1:" + proxy.getPort()));
  }

  public URI endpoint() {
    return endpoint;
  }

  public void createBucket(String bucket) {
    blobStore.createContainer(bucket);
  }

  /** A path-style client with the server's credentials; the caller closes it. */
  public S3Client client() {
    return S3Client.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
        .build();
  }

  @Override
  public void close() {
    stopQuietly(proxy);
  }

  private static void stopQuietly(S3Proxy proxy) {
    try {
      proxy.stop();
    } catch (Exception ignored) {
      // A server that never started cannot be stopped; nothing is left to release.
    }
  }
}
