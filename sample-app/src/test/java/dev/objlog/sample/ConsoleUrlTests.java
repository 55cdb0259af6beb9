package dev.objlog.sample;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureTestRestTemplate;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

/** The URL README's sample section tells a new user to open serves the console, with the sample's streams. */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"objlog.store.filesystem.root=target/objlog-test-data/${random.uuid}", "objlog.demo.enabled=false"})
@AutoConfigureTestRestTemplate
class ConsoleUrlTests {

  @Autowired
  TestRestTemplate http;

  @Test
  void theConsoleIsAtActuatorObjlogConsoleAndReadsTheSamplesStreams() {
    ResponseEntity<String> page = http.getForEntity("/actuator/objlog/console", String.class);
    assertThat(page.getStatusCode()).isEqualTo(HttpStatus.OK);
    assertThat(page.getBody()).contains("<title>objlog console</title>");
    String view = http.getForObject("/actuator/objlog?heads=cached", String.class);
    assertThat(view).contains("\"events\"").contains("\"demo\"").contains("\"headsRefresh\":\"PT5S\"")
        .contains("\"writeOperations\":false");
  }
}
