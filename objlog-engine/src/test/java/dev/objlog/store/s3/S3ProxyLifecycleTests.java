package dev.objlog.store.s3;

import dev.objlog.lifecycle.ProviderLifecycleScenario;
import dev.objlog.store.RetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Retention and reclaim key paths against S3Proxy (atomic conditions). */
class S3ProxyLifecycleTests {
  private static final String BUCKET = "objlog-lifecycle";
  private static S3ProxyServer server;

  @BeforeAll
  static void start() {
    server = S3ProxyServer.start(true);
    server.createBucket(BUCKET);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void retentionApplyReclaimAndScrub() {
    try (S3ObjectStore store = S3ObjectStore.builder()
        .bucket(BUCKET)
        .endpoint(server.endpoint)
        .pathStyle(true)
        .region("us-east-1")
        .credentials(S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY)
        .retryPolicy(new RetryPolicy(3, Duration.ofMillis(20), Duration.ofMillis(200), 0.5, Duration.ofSeconds(30)))
        .build()) {
      ProviderLifecycleScenario.run(store);
    }
  }
}
