package dev.objlog.spring.test.example;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.test.InMemoryObjlog;
import dev.objlog.spring.test.ObjlogTester;
import dev.objlog.spring.test.TestRecord;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

@SpringBootTest
@InMemoryObjlog
class OrderListenerTests {

  @Autowired
  ObjlogTemplate template;

  @Autowired
  ObjlogTester objlog;

  @Autowired
  OrderListener listener;

  @Test
  void theListenerGetsEveryOrderInOrder() throws Exception {
    for (int i = 0; i < 10; i++) {
      template.send("orders", 2, "order-" + i).get(30, TimeUnit.SECONDS);
    }

    assertThat(objlog.awaitRecords("orders", 2, 10))
        .extracting(TestRecord::valueAsString)
        .startsWith("order-0", "order-1")
        .endsWith("order-9");
    objlog.awaitCheckpoint("order-listener", 2, 10);   // processed every record below LSN 10
    assertThat(listener.seen()).containsSubsequence("order-0", "order-5", "order-9");
  }
}
