package dev.objlog.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.core.SendResult;
import dev.objlog.spring.test.InMemoryObjlog;
import dev.objlog.spring.test.ObjlogTester;
import dev.objlog.spring.test.TestRecord;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The events listener on the memory store: whatever the sample's application.yml says about the
 * store and checkpoints, {@code @InMemoryObjlog} keeps this test off the disk, and the group
 * listener keeps its checkpoints and leases in memory.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = "objlog.demo.enabled=false")
@InMemoryObjlog
class EventsListenerTests {

  @Autowired
  ObjlogTemplate template;

  @Autowired
  ObjlogTester objlog;

  @Autowired
  EventsListener listener;

  @Test
  void theListenerProcessesEveryEventSentByKeyAndCheckpointsPastIt() throws Exception {
    long before = listener.seen();
    SendResult last = null;
    for (int i = 0; i < 3; i++) {
      last = template.send("events", "user-1", "{\"type\":\"click\",\"n\":" + i + "}").get(30, TimeUnit.SECONDS);
    }

    assertThat(objlog.awaitRecords("events", last.partition(), 3))
        .allSatisfy(r -> assertThat(r.key()).isEqualTo("user-1"))
        .extracting(TestRecord::valueAsString)
        .endsWith("{\"type\":\"click\",\"n\":2}");
    objlog.awaitCheckpoint("events-logger", last.partition(), last.lsn() + 1);
    assertThat(listener.seen()).isGreaterThanOrEqualTo(before + 3);
  }
}
