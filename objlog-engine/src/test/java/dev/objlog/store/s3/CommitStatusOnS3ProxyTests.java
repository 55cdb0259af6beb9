package dev.objlog.store.s3;

import dev.objlog.CommitStatusContract;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.RetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Commit status after indeterminate publishes against S3Proxy with atomic conditional writes. */
class CommitStatusOnS3ProxyTests extends CommitStatusContract {
  private static S3ProxyServer server;
  private static ObjectStore shared;

  @BeforeAll
  static void startServer() {
    server = S3ProxyServer.start(true);
    server.createBucket("commit-status");
    shared = S3ObjectStore.builder()
        .bucket("commit-status")
        .endpoint(server.endpoint)
        .pathStyle(true)
        .region("us-east-1")
        .credentials(S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY)
        .retryPolicy(new RetryPolicy(3, Duration.ofMillis(20), Duration.ofMillis(200), 0.5, Duration.ofSeconds(30)))
        .build();
  }

  @AfterAll
  static void stopServer() {
    if (shared != null) {
      shared.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Override
  protected ObjectStore store() {
    return shared;
  }
}
