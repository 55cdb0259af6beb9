package dev.objlog.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.test.AutoConfigureObjlogTester;
import dev.objlog.spring.test.ObjlogTester;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureTestRestTemplate;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * The sample as a user runs it, on the default filesystem store (in a fresh directory): the demo
 * at startup, the events endpoint, and the actuator.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "objlog.store.filesystem.root=target/objlog-test-data/${random.uuid}")
@AutoConfigureTestRestTemplate
@AutoConfigureObjlogTester
@ExtendWith(OutputCaptureExtension.class)
class SampleApplicationTests {

  @Autowired
  TestRestTemplate http;

  @Test
  void theDemoRunsAtStartupAndPrintsItsSummary(CapturedOutput output) {
    assertThat(output.getOut())
        .contains("objlog demo: stream 'demo' (stream id \"sample/demo\", 2 partitions)")
        .contains("-- 1. Write through ObjlogTemplate: 200 orders")
        .contains("all 200 durable in")
        .contains("-- 3. Read partition")
        .contains("checkpoint: {\"version\":1,\"stream_id\":\"sample/demo\",\"partition\":")
        .contains("resumed cursor read LSN 5..9")
        .contains("tailed 20 of 20 records")
        .contains("-- 7. Retention: partition")
        .contains("requested: policy version 1, before LSN")
        .contains("applied by this instance's writer: records below LSN")
        .containsPattern("reading LSN \\d+: LsnExpiredException \\(oldest [1-9]\\d*, next")
        .contains("-- 8. Reclaim partition")
        .containsPattern("reclaimed [1-9]\\d* objects, [1-9]\\d* bytes")
        .contains(ObjlogDemo.SUMMARY_TITLE)
        .contains("records written this run: 220")
        .containsPattern("records readable in stream 'demo': (\\d+) \\(.*p\\d \\[[1-9]\\d*, ");
    String summary = output.getOut().substring(output.getOut().indexOf(ObjlogDemo.SUMMARY_TITLE));
    assertThat(summary).containsPattern("after write\\s+\\d+\\s+\\d+\\s+[1-9]\\d*\\s+[1-9]\\d*");
    // Retention deletes nothing; reclaim shrinks the bucket.
    assertThat(summary).containsPattern("after retention\\s+\\d+\\s+\\d+\\s+[0-9]\\d*\\s+");
    assertThat(summary).containsPattern("after reclaim\\s+\\d+\\s+\\d+\\s+-[1-9]\\d*\\s+-[1-9]\\d*");
  }

  @Test
  void writeOperationsAreNotAvailableWithDefaultAccess() {
    HttpHeaders json = new HttpHeaders();
    json.setContentType(MediaType.APPLICATION_JSON);
    ResponseEntity<Map> reclaim = http.postForEntity("/actuator/objlog/demo/0/reclaim", new HttpEntity<>("{}", json),
        Map.class);
    assertThat(reclaim.getStatusCode().value()).isIn(404, 405);
    ResponseEntity<Map> retention = http.postForEntity("/actuator/objlog/demo/0/retention",
        new HttpEntity<>("{\"beforeLsn\":1}", json), Map.class);
    assertThat(retention.getStatusCode().value()).isIn(404, 405);
  }

  @Test
  @SuppressWarnings("unchecked")
  void eventsArePostedAndReadBack() {
    HttpHeaders json = new HttpHeaders();
    json.setContentType(MediaType.APPLICATION_JSON);
    ResponseEntity<Map> posted = http.postForEntity("/events?key=user-1",
        new HttpEntity<>("{\"type\":\"signup\",\"user\":\"user-1\"}", json), Map.class);
    assertThat(posted.getStatusCode()).isEqualTo(HttpStatus.OK);
    Map<String, Object> result = posted.getBody();
    assertThat(result).containsEntry("stream", "events").containsKeys("lsn", "timestamp");
    int partition = (Integer) result.get("partition");
    long lsn = ((Number) result.get("lsn")).longValue();

    HttpHeaders text = new HttpHeaders();
    text.setContentType(MediaType.TEXT_PLAIN);
    ResponseEntity<Map> second = http.postForEntity("/events?partition=" + partition,
        new HttpEntity<>("plain text", text), Map.class);
    assertThat(second.getStatusCode()).isEqualTo(HttpStatus.OK);
    assertThat(((Number) second.getBody().get("lsn")).longValue()).isEqualTo(lsn + 1);

    Map<String, Object> read = http.getForObject("/events?partition=" + partition + "&from=" + lsn + "&limit=10", Map.class);
    List<Map<String, Object>> events = (List<Map<String, Object>>) read.get("events");
    assertThat(events).hasSize(2);
    assertThat(events.get(0)).containsEntry("value", "{\"type\":\"signup\",\"user\":\"user-1\"}");
    assertThat((Map<String, Object>) events.get(0).get("headers"))
        .containsEntry("objlog_key", "user-1").containsEntry("contentType", "application/json");
    assertThat(events.get(1)).containsEntry("value", "plain text");
    assertThat(((Number) read.get("nextLsn")).longValue()).isEqualTo(lsn + 2);
  }

  @Test
  @SuppressWarnings("unchecked")
  void actuatorObjlogListsStreamsByNameWithPartitions() {
    ResponseEntity<Map> response = http.getForEntity("/actuator/objlog", Map.class);
    assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
    Map<String, Object> streams = (Map<String, Object>) response.getBody().get("streams");
    assertThat(streams).containsKeys("events", "demo");
    Map<String, Object> demo = (Map<String, Object>) streams.get("demo");
    assertThat(demo).containsEntry("streamId", "sample/demo").containsEntry("partitionCount", 2)
        .containsEntry("writerPartitions", "*");
    List<Map<String, Object>> partitions = (List<Map<String, Object>>) demo.get("partitions");
    assertThat(partitions).hasSize(2);
    long total = partitions.stream().mapToLong(p -> ((Number) p.get("nextLsn")).longValue()).sum();
    assertThat(total).isGreaterThanOrEqualTo(220);
    assertThat(partitions.get(0)).containsKeys("oldestLsn", "writerEpoch", "segmentCount", "reachableSegmentCount",
        "newestRecordTimestamp", "localWriter");
    assertThat((Map<String, Object>) partitions.get(0).get("localWriter")).containsEntry("state", "OPEN");
  }

  @Test
  @SuppressWarnings("unchecked")
  void actuatorObjlogShowsOnePartitionInDetail() {
    ResponseEntity<Map> response = http.getForEntity("/actuator/objlog/demo/1", Map.class);
    assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
    Map<String, Object> body = response.getBody();
    assertThat(body).containsEntry("stream", "demo").containsEntry("streamId", "sample/demo").containsEntry("partition", 1)
        .containsKeys("nextLsn", "appliedRetentionLsn", "newestSegment", "segmentObjects", "localWriter");
    Map<String, Object> folder = (Map<String, Object>) body.get("segmentObjects");
    assertThat(((Number) folder.get("count")).longValue()).isPositive();
    assertThat((List<Object>) folder.get("newest")).isNotEmpty();

    assertThat(http.getForEntity("/actuator/objlog/nope/0", Map.class).getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
    assertThat(http.getForEntity("/actuator/objlog/demo/2", Map.class).getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
  }

  @Test
  @SuppressWarnings("unchecked")
  void healthAndInfoIncludeObjlog() {
    Map<String, Object> health = http.getForObject("/actuator/health", Map.class);
    assertThat(health).containsEntry("status", "UP");
    Map<String, Object> objlog = (Map<String, Object>) ((Map<String, Object>) health.get("components")).get("objlog");
    assertThat(objlog).containsEntry("status", "UP");
    assertThat((Map<String, Object>) objlog.get("details")).containsKeys("openWriters", "store");

    Map<String, Object> info = http.getForObject("/actuator/info", Map.class);
    assertThat((Map<String, Object>) info.get("objlog")).containsKeys("formats", "store", "streams");
  }

  @Autowired
  EventsListener eventsListener;

  @Autowired
  ObjlogTester objlog;

  @Test
  @SuppressWarnings("unchecked")
  void theEventsListenerSeesPostedEventsAndItsLagIsOnTheActuator() {
    long before = eventsListener.seen();
    HttpHeaders text = new HttpHeaders();
    text.setContentType(MediaType.TEXT_PLAIN);
    ResponseEntity<Map> posted =
        http.postForEntity("/events?partition=3", new HttpEntity<>("for the listener", text), Map.class);
    assertThat(posted.getStatusCode()).isEqualTo(HttpStatus.OK);
    // The group's checkpoint (in the bucket) is past the event: the listener has processed it.
    objlog.withTimeout(java.time.Duration.ofSeconds(30))
        .awaitCheckpoint("events-logger", 3, ((Number) posted.getBody().get("lsn")).longValue() + 1);
    assertThat(eventsListener.seen()).as("the listener saw the event").isGreaterThan(before);
    Map<String, Object> body = http.getForObject("/actuator/objlog", Map.class);
    Map<String, Object> listener = (Map<String, Object>) ((Map<String, Object>) body.get("listeners")).get("events-logger");
    assertThat(listener).containsEntry("stream", "events").containsEntry("state", "RUNNING");
    List<Map<String, Object>> partitions = (List<Map<String, Object>>) listener.get("partitionStatus");
    assertThat(partitions).hasSize(4).allSatisfy(p -> assertThat(p).containsKeys("lagRecords", "checkpoint", "headNextLsn"));

    // The listener's group: alone on its store, this instance holds every partition's lease.
    Map<String, Object> group = (Map<String, Object>) listener.get("group");
    assertThat(group).containsEntry("group", EventsListener.GROUP).containsEntry("members", 1);
    String instanceId = (String) group.get("instanceId");
    assertThat(instanceId).isNotBlank();
    List<Map<String, Object>> leases = (List<Map<String, Object>>) group.get("leases");
    assertThat(leases).extracting(l -> l.get("partition")).containsExactly(0, 1, 2, 3);
    assertThat(leases).allSatisfy(l -> assertThat(l).containsEntry("owner", instanceId)
        .containsEntry("heldByThisInstance", true));
    // The events stream's writers share partitions by lease too: this instance holds them all.
    Map<String, Object> events = (Map<String, Object>) ((Map<String, Object>) body.get("streams")).get("events");
    assertThat(events).containsEntry("writerPartitions", "0-3");
    Map<String, Object> writerLease = (Map<String, Object>) events.get("writerLease");
    assertThat(writerLease).containsEntry("members", 1);
    assertThat((List<Map<String, Object>>) writerLease.get("leases")).extracting(l -> l.get("owner"))
        .containsOnly(writerLease.get("instanceId")).hasSize(4);
  }
}
