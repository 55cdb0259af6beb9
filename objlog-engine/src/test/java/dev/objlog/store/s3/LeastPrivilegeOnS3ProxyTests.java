package dev.objlog.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionWriter;
import dev.objlog.WriterOptions;
import dev.objlog.coordination.BucketLeaseStore;
import dev.objlog.coordination.Lease;
import dev.objlog.coordination.LeaseId;
import dev.objlog.format.key.KeyPrefixes;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.lifecycle.ReclaimResult;
import dev.objlog.lifecycle.Reclaimer;
import dev.objlog.lifecycle.ReclaimerOptions;
import dev.objlog.read.ReadRecord;
import dev.objlog.store.AccessDeniedException;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.RetryPolicy;
import dev.objlog.testing.MutableClock;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.gaul.s3proxy.AccessGrant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs each role's operations with exactly the IAM policy docs/stores/s3.md documents for it, on
 * S3Proxy behind {@link PolicyCheckingBlobStore}, which refuses with 403 AccessDenied whatever the
 * policy does not allow. The policies are read from the document itself, so the document and
 * this test cannot drift apart: each role does its work with its policy, a reader's write fails
 * with the typed error naming the permission, and the policy without any one of its actions makes
 * some operation of the role fail with that typed error (the lists are complete and minimal for
 * what the roles do here).
 */
class LeastPrivilegeOnS3ProxyTests {
  private static final String BUCKET = "my-log-bucket";
  private static final String ROOT = "objlog";
  private static final Map<String, IamPolicy> DOCUMENTED = IamPolicy.documented();
  private static final Map<String, IamPolicy> GRANTED = new ConcurrentHashMap<>();
  private static final Duration DELETE_DELAY = Duration.ofHours(1);

  private static S3ProxyServer server;

  private final MutableClock clock = new MutableClock();
  private String stream;

  @BeforeAll
  static void start() {
    server = S3ProxyServer.startWithPrincipals(admin -> (identity, container, blob) -> {
      if (identity.equals(S3ProxyServer.ACCESS_KEY)) {
        return new AccessGrant(S3ProxyServer.SECRET_KEY, admin);
      }
      if (!GRANTED.containsKey(identity)) {
        return null;
      }
      return new AccessGrant(secretOf(identity), new PolicyCheckingBlobStore(admin, identity, () -> GRANTED.get(identity)));
    });
    server.createBucket(BUCKET);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @BeforeEach
  void grantTheDocumentedPolicies() {
    GRANTED.putAll(DOCUMENTED);
    stream = "orders-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @Test
  void theDocumentNamesAPolicyForEachRole() {
    assertThat(DOCUMENTED.keySet()).containsExactlyInAnyOrder("writer", "reader", "consumer", "reclaimer");
  }

  @Test
  void aWriterWithTheWriterPolicyPassesTheStartupChecksWritesCommitsAndAppliesRetention() {
    try (ObjectStore store = storeOf("writer")) {
      runAs("writer", store);
    }
    try (ObjectStore admin = storeOf(S3ProxyServer.ACCESS_KEY);
        Objlog log = Objlog.open(admin, stream, options())) {
      assertThat(log.head(0).orElseThrow().nextLsn()).isEqualTo(6);
    }
  }

  @Test
  void aReaderWithTheReaderPolicyReadsButItsWritesAreDeniedNamingThePermission() {
    writeAsAdministrator();
    try (ObjectStore store = storeOf("reader")) {
      runAs("reader", store);
      try (Objlog log = Objlog.open(store, stream, options())) {
        assertThatThrownBy(() -> {
          try (PartitionWriter writer = log.openWriter(0)) {
            writer.append(LogRecord.of(2_000, "not allowed"));
            writer.flush();
          }
        }).satisfies(e -> assertThat(denial(e).permission()).isEqualTo("s3:PutObject"));
      }
      assertThatThrownBy(() -> store.putIfAbsent(ROOT + "/" + stream + "/x", new byte[1]))
          .isInstanceOfSatisfying(AccessDeniedException.class, denied -> {
            assertThat(denied.permission()).isEqualTo("s3:PutObject");
            assertThat(denied.operation()).isEqualTo("create-only PUT");
            assertThat(denied.key()).isEqualTo(ROOT + "/" + stream + "/x");
            assertThat(denied).hasMessageContaining("s3:PutObject").hasMessageContaining("docs/stores/s3.md");
          });
      assertThatThrownBy(() -> store.delete(java.util.List.of(ROOT + "/" + stream + "/x", ROOT + "/" + stream + "/y")))
          .isInstanceOfSatisfying(AccessDeniedException.class,
              denied -> assertThat(denied.permission()).isEqualTo("s3:DeleteObject"));
    }
  }

  @Test
  void aConsumerWithTheConsumerPolicyReadsAndHoldsAGroupLeaseButWritesNoRecords() {
    writeAsAdministrator();
    try (ObjectStore store = storeOf("consumer")) {
      runAs("consumer", store);
      assertThatThrownBy(() -> store.putIfAbsent(ROOT + "/" + stream + "/x", new byte[1]))
          .isInstanceOfSatisfying(AccessDeniedException.class,
              denied -> assertThat(denied.permission()).isEqualTo("s3:PutObject"));
    }
  }

  @Test
  void aReclaimerWithTheReclaimerPolicyDeletesWhatRetentionTrimmed() {
    writeAsAdministrator();
    try (ObjectStore store = storeOf("reclaimer")) {
      runAs("reclaimer", store);
    }
  }

  static Stream<Arguments> everyDocumentedAction() {
    return DOCUMENTED.entrySet().stream()
        .flatMap(role -> role.getValue().actions().stream().map(action -> Arguments.of(role.getKey(), action)));
  }

  @ParameterizedTest(name = "{0} without {1}")
  @MethodSource("everyDocumentedAction")
  void withoutAnyDocumentedActionSomeOperationOfTheRoleIsDeniedNamingIt(String role, String action) {
    if (!role.equals("writer")) {
      writeAsAdministrator();
    }
    GRANTED.put(role, DOCUMENTED.get(role).without(action));
    try (ObjectStore store = storeOf(role)) {
      runAs(role, store);
      fail(role + " did all its work without " + action + ": the documented policy is not minimal");
    } catch (RuntimeException e) {
      AccessDeniedException denied = denial(e);
      if (action.equals("s3:ListBucket") && denied.permission().equals("s3:GetObject")) {
        // S3 answers a read of a missing key 403 without s3:ListBucket; the message says so.
        assertThat(denied).hasMessageContaining("s3:ListBucket");
      } else {
        assertThat(denied.permission()).isEqualTo(action);
      }
    }
  }

  // --- what each role does -----------------------------------------------------------------

  private void runAs(String role, ObjectStore store) {
    switch (role) {
      case "writer" -> writerWork(store);
      case "reader" -> readerWork(store);
      case "consumer" -> consumerWork(store);
      case "reclaimer" -> reclaimerWork(store);
      default -> throw new IllegalArgumentException(role);
    }
  }

  /**
   * What a producing service does: the starter's bucket check and conditional-write self-test,
   * appends and commits, retention, and the abort of a multipart upload it cannot finish.
   */
  private void writerWork(ObjectStore store) {
    store.list(ROOT + "/", 1);
    store.verifyConditionalWrites(ROOT);
    try (Objlog log = Objlog.open(store, stream, options());
        PartitionWriter writer = log.openWriter(0, WriterOptions.builder().batch(Duration.ofHours(1), 64L << 20, 2).build())) {
      for (int i = 0; i < 6; i++) {
        writer.append(LogRecord.of(1_000 + i, "record-" + i));
      }
      assertThat(writer.flush().nextLsn()).isEqualTo(6);
      log.requestRetention(0, 1, 4);
      assertThat(writer.applyRetention().applied()).isTrue();
    }
    // A segment upload that fails midway is aborted; a part must have been sent for an abort to be sent.
    ObjectUpload upload = store.startUpload(ROOT + "/" + stream + "/abandoned-upload");
    upload.write(new byte[((S3ObjectStore) store).partSize() + 1]);
    upload.abort();
  }

  /** What a consuming service does: the bucket check, then reads by LSN. */
  private void readerWork(ObjectStore store) {
    store.list(ROOT + "/", 1);
    try (Objlog log = Objlog.open(store, stream, options())) {
      assertThat(log.reader().partition(0).read(4, 10).records().stream().map(ReadRecord::valueAsString))
          .containsExactly("record-4", "record-5");
    }
  }

  /**
   * What a consuming service whose listener shares partitions through the bucket does: a reader's
   * work, then acquire, renew and release a consumer-group lease.
   */
  private void consumerWork(ObjectStore store) {
    readerWork(store);
    BucketLeaseStore leases = new BucketLeaseStore(
        store, (name, partition) -> PartitionKeys.of(KeyPrefixes.resolve(ROOT), name, partition), clock);
    LeaseId id = LeaseId.ofGroup("billing", LeaseId.Role.PARTITION, stream, 0);
    Lease held = leases.tryAcquire(id, "member-1", Duration.ofSeconds(30)).grantedLease().orElseThrow();
    Lease renewed = leases.renew(id, held, Duration.ofSeconds(30)).grantedLease().orElseThrow();
    assertThat(leases.release(id, renewed)).isTrue();
  }

  /** What a maintenance service does: the startup checks, then reclaim and scrub passes. */
  private void reclaimerWork(ObjectStore store) {
    store.list(ROOT + "/", 1);
    store.verifyConditionalWrites(ROOT);
    try (Objlog log = Objlog.open(store, stream, options());
        Reclaimer reclaimer = Reclaimer.create(log, ReclaimerOptions.builder().clock(clock).deleteDelay(DELETE_DELAY).build())) {
      reclaimer.reclaim(0);
      clock.advance(DELETE_DELAY);
      ReclaimResult pass = reclaimer.reclaim(0);
      assertThat(pass.deletedObjects()).as("segments and pages below the retention floor").isPositive();
      reclaimer.scrub(0);
    }
  }

  private void writeAsAdministrator() {
    GRANTED.put("writer", IamPolicy.parse("{\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"s3:*\",\"Resource\":\"*\"}]}"));
    try (ObjectStore admin = storeOf("writer")) {
      writerWork(admin);
    }
    GRANTED.put("writer", DOCUMENTED.get("writer"));
  }

  // --- helpers -----------------------------------------------------------------------------

  private ObjlogOptions options() {
    return ObjlogOptions.builder().prefix(ROOT).clock(clock).build();
  }

  private static ObjectStore storeOf(String principal) {
    return S3ObjectStore.builder()
        .bucket(BUCKET)
        .endpoint(server.endpoint)
        .pathStyle(true)
        .region("us-east-1")
        .credentials(principal, principal.equals(S3ProxyServer.ACCESS_KEY) ? S3ProxyServer.SECRET_KEY : secretOf(principal))
        .retryPolicy(new RetryPolicy(3, Duration.ofMillis(20), Duration.ofMillis(200), 0.5, Duration.ofSeconds(30)))
        .build();
  }

  private static String secretOf(String principal) {
    return principal + "-secret";
  }

  private static AccessDeniedException denial(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof AccessDeniedException denied) {
        return denied;
      }
    }
    throw new AssertionError("expected a failure caused by AccessDeniedException", e);
  }
}
