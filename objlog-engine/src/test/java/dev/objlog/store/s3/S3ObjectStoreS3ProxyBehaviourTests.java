package dev.objlog.store.s3;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.store.CasResult;
import dev.objlog.store.ConditionalGetResult;
import dev.objlog.store.ConditionalWritesNotHonouredException;
import dev.objlog.store.CreateResult;
import dev.objlog.store.IndeterminateStoreException;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.PermanentStoreException;
import dev.objlog.store.RetryPolicy;
import dev.objlog.store.TransientStoreException;
import dev.objlog.store.VersionToken;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * What the contract cannot see: how many S3 requests each operation costs, that S3Proxy really
 * answers conditional GETs with 304, error classification against a live server, that credentials
 * never reach messages, and that a gateway dropping conditions is caught by the self-test.
 */
class S3ObjectStoreS3ProxyBehaviourTests {
  private static final String BUCKET = "objlog-behaviour";
  private static final RetryPolicy FAST =
      new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(5), 0.5, Duration.ofSeconds(30));

  private static S3ProxyServer server;
  private static S3ProxyServer nonAtomicServer;

  private final String prefix = "behaviour/" + UUID.randomUUID() + "/";

  @BeforeAll
  static void startServers() {
    server = S3ProxyServer.start(true);
    server.createBucket(BUCKET);
    nonAtomicServer = S3ProxyServer.start(false);
    nonAtomicServer.createBucket(BUCKET);
  }

  @AfterAll
  static void stopServers() {
    if (server != null) {
      server.close();
    }
    if (nonAtomicServer != null) {
      nonAtomicServer.close();
    }
  }

  private static S3Client loggedClient(URI endpoint, ExecutionInterceptor... interceptors) {
    return S3Client.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY)))
        .overrideConfiguration(
            o -> {
              o.retryStrategy(AwsRetryStrategy.doNotRetry());
              for (ExecutionInterceptor i : interceptors) {
                o.addExecutionInterceptor(i);
              }
            })
        .build();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(UTF_8);
  }

  @Test
  void conditionalGetIsAnsweredWith304AndTransfersNothing() {
    RequestLog log = new RequestLog();
    try (S3Client client = loggedClient(server.endpoint, log);
        S3ObjectStore store = S3ObjectStore.builder().bucket(BUCKET).client(client).build()) {
      VersionToken token = ((CreateResult.Created) store.putIfAbsent(prefix + "poll", bytes("v1"))).token();
      log.drain();
      assertThat(store.getIfChanged(prefix + "poll", token)).isInstanceOf(ConditionalGetResult.Unchanged.class);
      assertThat(log.drain()).containsExactly("GetObject 304");
    }
  }

  @Test
  void eachOperationCostsTheDocumentedRequests() {
    RequestLog log = new RequestLog();
    try (S3Client client = loggedClient(server.endpoint, log);
        S3ObjectStore store =
            S3ObjectStore.builder()
                .bucket(BUCKET)
                .client(client)
                .partSize(S3ObjectStore.MIN_PART_SIZE)
                .deleteBatchSize(2)
                .build()) {
      String key = prefix + "cas.json";
      VersionToken first = ((CreateResult.Created) store.putIfAbsent(key, bytes("{}"))).token();
      assertThat(log.drain()).containsExactly("PutObject 200");

      assertThat(store.compareAndSwap(key, first, bytes("{\"a\":1}"))).isInstanceOf(CasResult.Swapped.class);
      assertThat(log.drain()).containsExactly("PutObject 200");

      assertThat(store.compareAndSwap(key, first, bytes("{\"a\":2}"))).isInstanceOf(CasResult.Conflict.class);
      assertThat(log.drain()).containsExactly("PutObject 412", "GetObject 200");

      assertThat(store.getRange(key, 1, 0)).isEmpty();
      assertThat(log.drain()).containsExactly("HeadObject 200");

      byte[] body = new byte[2 * S3ObjectStore.MIN_PART_SIZE + 5];
      new Random(3).nextBytes(body);
      try (ObjectUpload upload = store.startUpload(prefix + "big")) {
        upload.write(body);
        assertThat(upload.complete().created()).isTrue();
      }
      assertThat(log.drain())
          .containsExactly(
              "CreateMultipartUpload 200", "UploadPart 200", "UploadPart 200", "UploadPart 200",
              "CompleteMultipartUpload 200");

      try (ObjectUpload upload = store.startUpload(prefix + "big")) {
        upload.write(body);
        assertThat(upload.complete()).isInstanceOf(CreateResult.AlreadyExists.class);
      }
      assertThat(log.drain())
          .containsExactly(
              "CreateMultipartUpload 200", "UploadPart 200", "UploadPart 200", "UploadPart 200",
              "CompleteMultipartUpload 412", "AbortMultipartUpload 204");

      try (ObjectUpload upload = store.startUpload(prefix + "exactly-one-part")) {
        upload.write(new byte[S3ObjectStore.MIN_PART_SIZE]);
        assertThat(upload.complete().created()).isTrue();
      }
      assertThat(log.drain()).containsExactly("PutObject 200");

      List<String> keys = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        keys.add(prefix + "d" + i);
      }
      store.delete(keys);
      assertThat(log.drain()).containsExactly("DeleteObjects 200", "DeleteObjects 200", "DeleteObjects 200");
    }
  }

  @Test
  void aStoreDoesNotCloseTheClientItWasGiven() {
    try (S3Client client = server.client()) {
      S3ObjectStore store = S3ObjectStore.builder().bucket(BUCKET).client(client).build();
      store.close();
      assertThat(client.listObjectsV2(b -> b.bucket(BUCKET).maxKeys(1)).sdkHttpResponse().isSuccessful()).isTrue();
    }
  }

  @Test
  void listingFollowsContinuationUntilThePageIsFull() {
    try (S3ObjectStore store = store(server, S3ProxyServer.SECRET_KEY)) {
      for (int i = 0; i < 7; i++) {
        store.putIfAbsent(prefix + "l/" + i, bytes("x"));
      }
      var page = store.list(prefix + "l/", prefix + "l/1", 4);
      assertThat(page.entries()).extracting(e -> e.key().substring(prefix.length()))
          .containsExactly("l/2", "l/3", "l/4", "l/5");
      assertThat(page.nextAfterKey()).isEqualTo(prefix + "l/5");
      var last = store.list(prefix + "l/", page.nextAfterKey(), 4);
      assertThat(last.entries()).hasSize(1);
      assertThat(last.hasMore()).isFalse();
    }
  }

  @Test
  void aMissingBucketIsPermanentAndSaysSo() {
    try (S3ObjectStore store =
        S3ObjectStore.builder()
            .bucket("no-such-bucket-" + UUID.randomUUID().toString().substring(0, 8))
            .endpoint(server.endpoint)
            .pathStyle(true)
            .credentials(S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY)
            .retryPolicy(FAST)
            .build()) {
      assertThatThrownBy(() -> store.putIfAbsent("k", bytes("x")))
          .isInstanceOf(PermanentStoreException.class)
          .hasMessageContaining("does not exist")
          .hasMessageContaining("NoSuchBucket");
      assertThatThrownBy(() -> store.list("", 10))
          .isInstanceOf(PermanentStoreException.class)
          .hasMessageContaining("does not exist");
    }
  }

  @Test
  void rejectedCredentialsArePermanentAndNeverQuoted() {
    String secret = "wrong-secret-" + UUID.randomUUID();
    try (S3ObjectStore store = store(server, secret)) {
      assertThat(store.describe()).doesNotContain(secret).doesNotContain(S3ProxyServer.ACCESS_KEY);
      assertThat(store.toString()).isEqualTo(store.describe());
      Throwable thrown = null;
      try {
        store.putIfAbsent(prefix + "k", bytes("x"));
      } catch (PermanentStoreException e) {
        thrown = e;
      }
      assertThat(thrown).isNotNull();
      assertThat(thrown.getMessage()).contains("credentials").doesNotContain(S3ProxyServer.ACCESS_KEY);
      for (Throwable t = thrown; t != null; t = t.getCause()) {
        assertThat(String.valueOf(t.getMessage())).doesNotContain(secret);
      }
    }
  }

  @Test
  void anUnreachableStoreIsTransientAndNeverIndeterminateForWrites() {
    List<Duration> sleeps = Collections.synchronizedList(new ArrayList<>());
    try (S3ObjectStore store =
        S3ObjectStore.builder()
            .bucket(BUCKET)
            .endpoint(URI.create("http://127.0.0.1:1"))
            .pathStyle(true)
            .credentials(S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY)
            .retryPolicy(FAST)
            .sleeper(sleeps::add)
            .build()) {
      assertThatThrownBy(() -> store.putIfAbsent("k", bytes("x")))
          .isInstanceOf(TransientStoreException.class)
          .isNotInstanceOf(IndeterminateStoreException.class)
          .hasMessageContaining("after 3 attempts");
      assertThat(sleeps).hasSize(2);
      assertThat(((TransientStoreException) catchTransient(() -> store.head("k"))).mayHaveTakenEffect()).isFalse();
    }
  }

  private static Throwable catchTransient(Runnable r) {
    try {
      r.run();
    } catch (TransientStoreException e) {
      return e;
    }
    throw new AssertionError("expected a TransientStoreException");
  }

  @Test
  void selfTestPassesOnS3ProxyWithAtomicConditions() {
    try (S3ObjectStore store = store(server, S3ProxyServer.SECRET_KEY)) {
      store.verifyConditionalWrites(prefix);
      assertThat(store.list(prefix, 10).entries()).isEmpty();
    }
  }

  @Test
  void selfTestRejectsAGatewayThatDropsConditions() {
    ExecutionInterceptor dropConditions =
        new ExecutionInterceptor() {
          @Override
          public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
            return context.httpRequest().toBuilder().removeHeader("If-None-Match").removeHeader("If-Match").build();
          }
        };
    try (S3Client client = loggedClient(nonAtomicServer.endpoint, dropConditions);
        S3ObjectStore store = S3ObjectStore.builder().bucket(BUCKET).client(client).build()) {
      assertThatThrownBy(() -> store.verifyConditionalWrites(prefix))
          .isInstanceOf(ConditionalWritesNotHonouredException.class)
          .hasMessageContaining("If-None-Match");
      assertThat(store.list(prefix, 10).entries()).isEmpty();
    }
  }

  private static S3ObjectStore store(S3ProxyServer on, String secret) {
    return S3ObjectStore.builder()
        .bucket(BUCKET)
        .endpoint(on.endpoint)
        .pathStyle(true)
        .credentials(S3ProxyServer.ACCESS_KEY, secret)
        .retryPolicy(FAST)
        .build();
  }
}
