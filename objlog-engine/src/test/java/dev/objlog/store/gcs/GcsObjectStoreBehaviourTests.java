package dev.objlog.store.gcs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.NoCredentials;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import dev.objlog.store.CreateResult;
import dev.objlog.store.ConditionalGetResult;
import dev.objlog.store.IndeterminateStoreException;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.PermanentStoreException;
import dev.objlog.store.RetryPolicy;
import dev.objlog.store.Sleeper;
import dev.objlog.store.TransientStoreException;
import dev.objlog.store.VersionToken;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What the contract suite cannot see: request counts, retries, error mapping, upload staging. */
class GcsObjectStoreBehaviourTests {
  private static final String BUCKET = "objlog-behaviour";
  private static final int CHUNK = GcsObjectStore.CHUNK_GRANULARITY;

  private static FakeGcsServer server;
  private static Storage admin;

  private final List<Duration> sleeps = new CopyOnWriteArrayList<>();
  private final Sleeper recordingSleeper = sleeps::add;
  private final String prefix = "behaviour/" + UUID.randomUUID() + "/";

  @BeforeAll
  static void start() throws Exception {
    server = FakeGcsServer.start();
    server.createBucket(BUCKET);
    admin =
        StorageOptions.http()
            .setHost(server.host())
            .setProjectId("test")
            .setCredentials(NoCredentials.getInstance())
            .build()
            .getService();
  }

  @AfterAll
  static void stop() throws Exception {
    admin.close();
    server.close();
  }

  @AfterEach
  void clearFaults() {
    server.failNext(0, 0, null);
  }

  private GcsObjectStore.Builder builder(int maxAttempts) {
    return GcsObjectStore.builder()
        .bucket(BUCKET)
        .host(server.host())
        .projectId("test")
        .credentials(NoCredentials.getInstance())
        .uploadChunkSize(CHUNK)
        .sleeper(recordingSleeper)
        .retryPolicy(new RetryPolicy(maxAttempts, Duration.ofMillis(10), Duration.ofMillis(40), 0, Duration.ofSeconds(10)));
  }

  private static VersionToken created(CreateResult result) {
    assertThat(result).isInstanceOf(CreateResult.Created.class);
    return ((CreateResult.Created) result).token();
  }

  @Test
  void rangedReadTransfersOnlyTheRange() {
    try (GcsObjectStore store = builder(1).build()) {
      byte[] body = new byte[1 << 20];
      new Random(1).nextBytes(body);
      created(store.putIfAbsent(prefix + "big", body));
      long before = server.mediaBytesServed();
      assertThat(store.getRange(prefix + "big", 500_000, 100)).hasSize(100);
      assertThat(server.mediaBytesServed() - before).isEqualTo(100);
    }
  }

  @Test
  void unchangedConditionalGetTransfersNoBody() {
    try (GcsObjectStore store = builder(1).build()) {
      VersionToken token = created(store.putIfAbsent(prefix + "head.json", "{}".getBytes(UTF_8)));
      long before = server.mediaBytesServed();
      assertThat(store.getIfChanged(prefix + "head.json", token)).isInstanceOf(ConditionalGetResult.Unchanged.class);
      assertThat(server.mediaBytesServed()).isEqualTo(before);
    }
  }

  @Test
  void versionTokenIsTheDecimalGenerationAndJsonKeysAreTypedJson() {
    try (GcsObjectStore store = builder(1).build()) {
      VersionToken token = created(store.putIfAbsent(prefix + "state.json", "{}".getBytes(UTF_8)));
      VersionToken other = created(store.putIfAbsent(prefix + "segment", new byte[] {1}));
      var json = admin.get(BlobId.of(BUCKET, prefix + "state.json"));
      assertThat(token.value()).isEqualTo(Long.toString(json.getGeneration()));
      assertThat(json.getContentType()).isEqualTo("application/json");
      assertThat(admin.get(BlobId.of(BUCKET, prefix + "segment")).getContentType())
          .isEqualTo("application/octet-stream");
      assertThat(Long.parseLong(other.value())).isGreaterThan(Long.parseLong(token.value()));
    }
  }

  @Test
  void throttledWritesAreRetriedThroughTheInjectedSleeper() {
    try (GcsObjectStore store = builder(4).build()) {
      server.failNext(2, 429, "POST");
      created(store.putIfAbsent(prefix + "retried", "x".getBytes(UTF_8)));
      assertThat(sleeps).containsExactly(Duration.ofMillis(10), Duration.ofMillis(20));
    }
  }

  @Test
  void exhaustedWriteThatMayHaveLandedIsIndeterminateAndA503IsNot() {
    try (GcsObjectStore store = builder(2).build()) {
      server.failNext(2, 500, "POST");
      assertThatThrownBy(() -> store.putIfAbsent(prefix + "doubt", "x".getBytes(UTF_8)))
          .isInstanceOf(IndeterminateStoreException.class);
      server.failNext(2, 503, "POST");
      assertThatThrownBy(() -> store.putIfAbsent(prefix + "unavailable", "x".getBytes(UTF_8)))
          .isInstanceOf(TransientStoreException.class)
          .satisfies(e -> assertThat(((TransientStoreException) e).mayHaveTakenEffect()).isFalse());
      server.failNext(2, 503, "GET");
      assertThatThrownBy(() -> store.head(prefix + "unavailable")).isInstanceOf(TransientStoreException.class);
    }
  }

  @Test
  void aDeniedRequestNamesItsKeyAndThePermissionItNeeds() {
    try (GcsObjectStore store = builder(3).build()) {
      server.failNext(1, 403, "GET");
      assertThatThrownBy(() -> store.head(prefix + "denied"))
          .isInstanceOfSatisfying(dev.objlog.store.AccessDeniedException.class, denied -> {
            assertThat(denied.key()).isEqualTo(prefix + "denied");
            assertThat(denied.permission()).isEqualTo("storage.objects.get");
          });
      assertThat(sleeps).as("never retried").isEmpty();
    }
  }

  @Test
  void authorizationFailuresArePermanentAndSayWhatToChange() {
    try (GcsObjectStore store = builder(3).build()) {
      server.failNext(1, 403, "GET");
      assertThatThrownBy(() -> store.head(prefix + "x"))
          .isInstanceOf(PermanentStoreException.class)
          .hasMessageContaining("roles/storage.objectUser");
      server.failNext(1, 401, "GET");
      assertThatThrownBy(() -> store.get(prefix + "x"))
          .isInstanceOf(PermanentStoreException.class)
          .hasMessageContaining("credentials");
      assertThat(sleeps).isEmpty();
    }
  }

  @Test
  void missingBucketIsPermanent() {
    try (GcsObjectStore store = builder(3).bucket("no-such-bucket").build()) {
      assertThatThrownBy(() -> store.putIfAbsent("k", new byte[] {1}))
          .isInstanceOf(PermanentStoreException.class)
          .hasMessageContaining("bucket");
    }
  }

  @Test
  void uploadWithinOneChunkIsASingleRequestAndOpensNoSession() {
    try (GcsObjectStore store = builder(1).build()) {
      int sessions = server.openSessions();
      try (ObjectUpload upload = store.startUpload(prefix + "small-aborted")) {
        upload.write(new byte[CHUNK]);
      }
      assertThat(server.openSessions()).isEqualTo(sessions);
      assertThat(store.head(prefix + "small-aborted")).isEmpty();
    }
  }

  @Test
  void abortedLargeUploadLeavesOnlyAnUnfinalizedSession() {
    try (GcsObjectStore store = builder(1).build()) {
      int sessions = server.openSessions();
      try (ObjectUpload upload = store.startUpload(prefix + "large-aborted")) {
        upload.write(new byte[3 * CHUNK]);
        upload.abort();
        assertThatThrownBy(() -> upload.write(new byte[1])).isInstanceOf(IllegalStateException.class);
      }
      assertThat(server.openSessions()).isEqualTo(sessions + 1);
      assertThat(store.head(prefix + "large-aborted")).isEmpty();
    }
  }

  @Test
  void keyTakenWhileAResumableUploadRunsEndsInAlreadyExists() {
    try (GcsObjectStore store = builder(1).build()) {
      byte[] body = new byte[2 * CHUNK + 5];
      try (ObjectUpload upload = store.startUpload(prefix + "contested")) {
        upload.write(body, 0, CHUNK + 1);
        created(store.putIfAbsent(prefix + "contested", "winner".getBytes(UTF_8)));
        upload.write(body, CHUNK + 1, body.length - CHUNK - 1);
        assertThat(upload.complete()).isInstanceOf(CreateResult.AlreadyExists.class);
      }
      assertThat(store.get(prefix + "contested").bytes()).isEqualTo("winner".getBytes(UTF_8));
    }
  }

  @Test
  void aFailedChunkIsResumedByTheClientInsideTheSession() {
    try (GcsObjectStore store = builder(3).build()) {
      byte[] body = new byte[3 * CHUNK + 11];
      new Random(3).nextBytes(body);
      try (ObjectUpload upload = store.startUpload(prefix + "resumed")) {
        upload.write(body, 0, 2 * CHUNK);
        server.failNext(1, 503, "PUT");
        upload.write(body, 2 * CHUNK, body.length - 2 * CHUNK);
        created(upload.complete());
      }
      assertThat(store.get(prefix + "resumed").bytes()).isEqualTo(body);
    }
  }

  @Test
  void aChunkThatKeepsFailingAbandonsTheUploadWithoutAnObject() {
    try (GcsObjectStore store = builder(2).build()) {
      try (ObjectUpload upload = store.startUpload(prefix + "broken")) {
        upload.write(new byte[CHUNK]);
        server.failNext(10, 503, "PUT");
        assertThatThrownBy(() -> {
              upload.write(new byte[2 * CHUNK]);
              upload.complete();
            })
            .isInstanceOf(TransientStoreException.class)
            .hasMessageContaining("start a new upload");
      }
      server.failNext(0, 0, null);
      assertThat(store.head(prefix + "broken")).isEmpty();
    }
  }

  @Test
  void requestsAreSpacedByTheRateLimitOnTheInjectedClock() {
    Clock frozen = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    try (GcsObjectStore store = builder(1).maxRequestsPerSecond(10).clock(frozen).build()) {
      store.head(prefix + "a");
      store.head(prefix + "b");
      store.head(prefix + "c");
      assertThat(sleeps).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
    }
  }

  @Test
  void aReusedClientIsNotClosedAndConflictingOptionsAreRefused() {
    GcsObjectStore store = GcsObjectStore.builder().bucket(BUCKET).storage(admin).build();
    created(store.putIfAbsent(prefix + "reused", new byte[] {7}));
    store.close();
    assertThat(admin.get(BlobId.of(BUCKET, prefix + "reused"))).isNotNull();
    assertThat(store.describe()).contains(BUCKET).contains(server.host());

    assertThatThrownBy(() -> GcsObjectStore.builder().bucket(BUCKET).storage(admin).host(server.host()).build())
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> GcsObjectStore.builder().uploadChunkSize(300_000))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GcsObjectStore.builder().build()).isInstanceOf(IllegalStateException.class);
  }
}
