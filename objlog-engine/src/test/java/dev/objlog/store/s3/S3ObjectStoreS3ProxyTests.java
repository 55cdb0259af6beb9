package dev.objlog.store.s3;

import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectStoreContract;
import dev.objlog.store.RetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The store contract against S3Proxy 4.1.0 in process (in-memory backend, SigV4, path-style),
 * with its conditional writes made atomic by {@link AtomicConditionsBlobStore}.
 */
class S3ObjectStoreS3ProxyTests extends ObjectStoreContract {
  private static final String BUCKET = "objlog-contract";

  private static S3ProxyServer server;

  @BeforeAll
  static void startServer() {
    server = S3ProxyServer.start(true);
    server.createBucket(BUCKET);
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  @Override
  protected ObjectStore createStore() {
    return S3ObjectStore.builder()
        .bucket(BUCKET)
        .endpoint(server.endpoint)
        .pathStyle(true)
        .region("us-east-1")
        .credentials(S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY)
        .partSize(S3ObjectStore.MIN_PART_SIZE)
        .retryPolicy(
            new RetryPolicy(3, Duration.ofMillis(20), Duration.ofMillis(200), 0.5, Duration.ofSeconds(30)))
        .build();
  }

  /** Three parts at S3Proxy's (and S3's) 5 MiB minimum part size. */
  @Override
  protected int largeUploadSize() {
    return 2 * S3ObjectStore.MIN_PART_SIZE + 1024 * 1024 + 17;
  }
}
