package dev.objlog.spring.test.example;

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
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.test.annotation.DirtiesContext;
import org.testcontainers.containers.MinIOContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The application on a real MinIO through the {@code @ServiceConnection}, which creates the bucket
 * before the store's self-test: runs where a Docker engine exists, skipped cleanly elsewhere.
 */
@SpringBootTest(properties = {"objlog.store.type=s3", "objlog.store.bucket=shop-orders"})
@AutoConfigureObjlogTester
@Testcontainers(disabledWithoutDocker = true)
@DirtiesContext
class MinioServiceConnectionTests {

  @Container
  @ServiceConnection
  static MinIOContainer minio = new MinIOContainer("minio/minio:RELEASE.2025-04-22T22-12-26Z");

  @Autowired
  ObjectStore store;

  @Autowired
  ObjlogTemplate template;

  @Autowired
  ObjlogTester objlog;

  @Test
  void theLogRunsInTheBucketTheServiceConnectionCreated() throws Exception {
    assertThat(store).isInstanceOfSatisfying(S3ObjectStore.class, s3 -> assertThat(s3.bucket()).isEqualTo("shop-orders"));
    template.send("orders", 1, "on minio").get(30, TimeUnit.SECONDS);
    assertThat(objlog.awaitRecords("orders", 1, 1)).extracting(TestRecord::valueAsString).containsExactly("on minio");
    objlog.awaitCheckpoint("order-listener", 1, 1);
  }
}
