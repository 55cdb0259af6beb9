package dev.objlog.store.s3;

import dev.objlog.store.ObjectStore;
import dev.objlog.store.RetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One in-process S3Proxy (atomic conditional writes) with one bucket and one store on it, shared
 * by a test class's tests: register it as a static {@code @RegisterExtension} field. The store
 * retries a few times, briefly, so a test's own faults are not hidden for long.
 *
 * <p>Thread-safety: started and closed by JUnit on one thread; {@link #store()} is as
 * thread-safe as {@link S3ObjectStore}.
 */
final class S3ProxyBucket implements BeforeAllCallback, AfterAllCallback {
  private final String bucket;
  private S3ProxyServer server;
  private ObjectStore store;

  S3ProxyBucket(String bucket) {
    this.bucket = bucket;
  }

  ObjectStore store() {
    return store;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    server = S3ProxyServer.start(true);
    server.createBucket(bucket);
    store = S3ObjectStore.builder()
        .bucket(bucket)
        .endpoint(server.endpoint)
        .pathStyle(true)
        .region("us-east-1")
        .credentials(S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY)
        .retryPolicy(new RetryPolicy(3, Duration.ofMillis(20), Duration.ofMillis(200), 0.5, Duration.ofSeconds(30)))
        .build();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (store != null) {
      store.close();
    }
    if (server != null) {
      server.close();
    }
  }
}
