package dev.objlog.spring.autoconfigure.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.autoconfigure.FailureAnalyses;
import dev.objlog.store.AccessDeniedException;
import dev.objlog.store.s3.IamPolicy;
import dev.objlog.store.s3.PolicyCheckingBlobStore;
import dev.objlog.store.s3.S3ProxyServer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.gaul.s3proxy.AccessGrant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A principal that lacks a permission the startup checks need stops startup with a message naming
 * the permission and the document listing each role's, not a stack trace; the documented policies
 * (docs/stores/s3.md) start the roles they are for. On S3Proxy behind a policy check that answers
 * 403 AccessDenied as S3 does.
 */
class AccessDeniedAtStartupTests {
  private static final String BUCKET = "my-log-bucket";
  private static final Map<String, IamPolicy> DOCUMENTED = IamPolicy.documented();
  private static final Map<String, IamPolicy> GRANTED = new ConcurrentHashMap<>();
  private static S3ProxyServer s3;

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class));

  @BeforeAll
  static void start() {
    GRANTED.putAll(DOCUMENTED);
    GRANTED.put("no-list", DOCUMENTED.get("writer").without("s3:ListBucket"));
    s3 = S3ProxyServer.startWithPrincipals(admin -> (identity, container, blob) -> GRANTED.containsKey(identity)
        ? new AccessGrant(identity + "-secret", new PolicyCheckingBlobStore(admin, identity, () -> GRANTED.get(identity)))
        : null);
    s3.createBucket(BUCKET);
  }

  @AfterAll
  static void stop() {
    if (s3 != null) {
      s3.close();
    }
  }

  @Test
  void aReaderPolicyFailsTheSelfTestNamingTheWritePermissionAndTheSwitch() {
    runnerAs("reader", true).run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).isInstanceOf(AccessDeniedException.class);
      FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
      assertThat(analysis.getDescription())
          .startsWith("objlog's object store refused the create-only PUT of 'objlog/selftest/")
          .contains("the credentials lack the permission s3:PutObject");
      assertThat(analysis.getAction())
          .startsWith("Grant s3:PutObject to the credentials objlog uses; docs/stores/s3.md lists")
          .contains("objlog.store.verify-conditional-writes=false");
    });
  }

  @Test
  void withoutListBucketTheBucketCheckStopsStartupNamingIt() {
    runnerAs("no-list", false).run(context -> {
      assertThat(context).hasFailed();
      FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
      assertThat(analysis.getDescription()).startsWith("objlog's object store refused the LIST of 'objlog/'")
          .contains("s3:ListBucket");
    });
  }

  @Test
  void eachDocumentedPolicyStartsItsRole() {
    runnerAs("writer", true).run(context -> assertThat(context).hasNotFailed());
    runnerAs("reclaimer", true).run(context -> assertThat(context).hasNotFailed());
    runnerAs("reader", false).run(context -> assertThat(context).hasNotFailed());
  }

  private ApplicationContextRunner runnerAs(String principal, boolean selfTest) {
    return runner.withPropertyValues(
        "objlog.store.type=s3",
        "objlog.store.bucket=" + BUCKET,
        "objlog.store.verify-conditional-writes=" + selfTest,
        "objlog.store.s3.endpoint=" + s3.endpoint(),
        "objlog.store.s3.path-style=true",
        "objlog.store.s3.access-key=" + principal,
        "objlog.store.s3.secret-key=" + principal + "-secret");
  }
}
