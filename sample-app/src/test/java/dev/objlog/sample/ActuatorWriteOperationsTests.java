package dev.objlog.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.read.Freshness;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.ObjlogTemplate;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureTestRestTemplate;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * The objlog endpoint's write operations with access raised ({@code
 * management.endpoint.objlog.access=unrestricted}); {@link SampleApplicationTests} checks they are
 * not there by default.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "objlog.store.filesystem.root=target/objlog-test-data/${random.uuid}",
      "objlog.demo.enabled=false",
      "management.endpoint.objlog.access=unrestricted"
    })
@AutoConfigureTestRestTemplate
class ActuatorWriteOperationsTests {

  @Autowired
  TestRestTemplate http;

  @Autowired
  ObjlogTemplate template;

  @Autowired
  ObjlogStreams streams;

  @Test
  @SuppressWarnings("unchecked")
  void retentionIsRequestedAndAppliedAndReclaimRunsNow() throws Exception {
    for (int i = 0; i < 10; i++) {
      template.send("demo", 0, "r" + i).get(30, TimeUnit.SECONDS);
    }
    HttpHeaders json = new HttpHeaders();
    json.setContentType(MediaType.APPLICATION_JSON);
    ResponseEntity<Map> retention = http.postForEntity("/actuator/objlog/demo/0/retention",
        new HttpEntity<>("{\"beforeLsn\":5}", json), Map.class);
    assertThat(retention.getStatusCode()).isEqualTo(HttpStatus.OK);
    assertThat((Map<String, Object>) retention.getBody().get("request")).containsEntry("policyVersion", 1)
        .containsEntry("beforeLsn", 5).containsEntry("outcome", "CREATED");
    assertThat((Map<String, Object>) retention.getBody().get("applied")).containsEntry("applied", true);
    long oldest = streams.reader("demo").partition(0).head(Freshness.LATEST).oldestLsn();
    assertThat(oldest).isBetween(1L, 5L);

    ResponseEntity<Map> reclaim = http.postForEntity("/actuator/objlog/demo/0/reclaim", new HttpEntity<>("{}", json),
        Map.class);
    assertThat(reclaim.getStatusCode()).isEqualTo(HttpStatus.OK);
    assertThat((Map<String, Object>) reclaim.getBody().get("result")).containsEntry("operation", "RECLAIM")
        .containsKeys("safeFloorLsn", "deletedObjects", "hasMore");

    assertThat(http.postForEntity("/actuator/objlog/demo/0/compact", new HttpEntity<>("{}", json), Map.class)
        .getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
    assertThat(http.postForEntity("/actuator/objlog/demo/0/retention", new HttpEntity<>("{}", json), Map.class)
        .getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
    assertThat(http.postForEntity("/actuator/objlog/nope/0/reclaim", new HttpEntity<>("{}", json), Map.class)
        .getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
  }
}
