package dev.objlog.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.test.AutoConfigureObjlogTester;
import dev.objlog.spring.test.ObjlogTester;
import dev.objlog.spring.test.TestRecord;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.s3.S3ObjectStore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The sample's "compose" profile for real: Boot starts compose.yaml, the minio service's
 * connection details point the s3 store at it and create the bucket before the store's self-test.
 * Runs where a Docker engine exists; skipped cleanly elsewhere (the test only needs the engine, it
 * starts no container of its own).
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.NONE,
    properties = {
      "spring.docker.compose.skip.in-tests=false",
      "spring.docker.compose.file=compose.yaml",
      "objlog.demo.enabled=false"
    })
@ActiveProfiles("compose")
@AutoConfigureObjlogTester
@Testcontainers(disabledWithoutDocker = true)
class ComposeMinioTests {

  @Autowired
  ObjectStore store;

  @Autowired
  ObjlogTemplate template;

  @Autowired
  ObjlogTester objlog;

  @Test
  void theComposeProfileRunsTheLogInTheBucketItCreatedOnMinio() throws Exception {
    assertThat(store).isInstanceOfSatisfying(S3ObjectStore.class, s3 -> assertThat(s3.bucket()).isEqualTo("objlog-sample"));
    int partition = template.send("events", "compose", "on minio").get(30, TimeUnit.SECONDS).partition();
    assertThat(objlog.readAll("events", partition)).extracting(TestRecord::valueAsString).contains("on minio");
  }
}
