package dev.objlog.spring.actuate.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * How the console is served over HTTP: beside the objlog endpoint (following the management port
 * and base path), with headers that keep it from being framed or made to load foreign code, not
 * at all when turned off or when the endpoint is not exposed; and how the write guard treats
 * requests a browser sends for another site, for the console, and requests from scripts.
 */
class ConsoleServingTests {
  @TempDir
  Path root;

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private HttpResponse<String> get(String url) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String base(ConfigurableApplicationContext app, String portProperty) {
    return "http://127.0.0.1:" + app.getEnvironment().getProperty(portProperty);
  }

  @Test
  void thePageAndItsFilesAreServedUnderTheEndpointWithProtectiveHeaders() throws Exception {
    try (ConfigurableApplicationContext app = ConsoleApp.start(root)) {
      String base = base(app, "local.server.port");
      HttpResponse<String> page = get(base + "/actuator/objlog/console");
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
      assertThat(page.headers().firstValue("Content-Security-Policy")).hasValue(ConsoleAsset.CONTENT_SECURITY_POLICY);
      assertThat(page.headers().firstValue("X-Frame-Options")).hasValue("DENY");
      assertThat(page.body()).contains("<title>objlog console</title>").contains("console/console.js");
      HttpResponse<String> script = get(base + "/actuator/objlog/console/console.js");
      assertThat(script.statusCode()).isEqualTo(200);
      assertThat(script.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/javascript"));
      assertThat(get(base + "/actuator/objlog/console/console.css").statusCode()).isEqualTo(200);
      assertThat(get(base + "/actuator/objlog/console/other.js").statusCode()).as("only the page's own files").isIn(400, 404);
      assertThat(get(base + "/actuator/objlog/orders/0").statusCode()).as("the endpoint still answers").isEqualTo(200);
      HttpResponse<String> cached = get(base + "/actuator/objlog?heads=cached");
      assertThat(cached.body()).contains("\"headsRefresh\":\"PT1S\"").contains("\"writeOperations\":false")
          .contains("\"storeActivity\"").contains("\"headReadAt\"")
          .contains("\"memory\":{\"capacityBytes\":").contains("\"segment-indexes\":");
      HttpResponse<String> segments = get(base + "/actuator/objlog/orders/0/segments?limit=10");
      assertThat(segments.statusCode()).isEqualTo(200);
      assertThat(segments.body()).contains("\"created\":false");
      assertThat(get(base + "/actuator/objlog/orders/0/segments?limit=0").statusCode()).isEqualTo(400);
      assertThat(get(base + "/actuator/objlog/orders/0/other").statusCode()).isEqualTo(404);
    }
  }

  @Test
  void followsTheManagementPortAndBasePath() throws Exception {
    try (ConfigurableApplicationContext app = ConsoleApp.start(root, "management.server.port=0",
        "management.endpoints.web.base-path=/manage")) {
      assertThat(get(base(app, "local.management.port") + "/manage/objlog/console").statusCode()).isEqualTo(200);
      assertThat(get(base(app, "local.management.port") + "/manage/objlog/console/console.js").statusCode())
          .isEqualTo(200);
      assertThat(get(base(app, "local.server.port") + "/manage/objlog/console").statusCode())
          .as("not on the application's port").isEqualTo(404);
    }
  }

  @Test
  void isNotServedWhenTurnedOffOrWhenTheEndpointIsNotExposed() throws Exception {
    try (ConfigurableApplicationContext app = ConsoleApp.start(root, "objlog.console.enabled=false")) {
      String base = base(app, "local.server.port");
      assertThat(get(base + "/actuator/objlog/console").statusCode()).isEqualTo(404);
      assertThat(get(base + "/actuator/objlog").statusCode()).isEqualTo(200);
    }
    try (ConfigurableApplicationContext app = ConsoleApp.start(root, "management.endpoints.web.exposure.include=health")) {
      assertThat(get(base(app, "local.server.port") + "/actuator/objlog/console").statusCode()).isEqualTo(404);
    }
  }

  @Test
  void aBrowsersWriteForAnotherSiteIsRefusedAndTheConsolesOwnPasses() throws Exception {
    try (ConfigurableApplicationContext app = ConsoleApp.start(root, "management.endpoint.objlog.access=unrestricted")) {
      String base = base(app, "local.server.port");
      String pause = base + "/actuator/objlog/listeners/" + ConsoleApp.LISTENER;
      String json = "{\"action\":\"pause\"}";
      String[][] refused = {
        {"Origin", "http://evil.example", "Content-Type", "application/json", ConsoleWriteGuard.HEADER, "1"},
        {"Origin", "http://127.0.0.1:1", "Content-Type", "application/json", ConsoleWriteGuard.HEADER, "1"},
        {"Sec-Fetch-Site", "cross-site", "Content-Type", "application/json", ConsoleWriteGuard.HEADER, "1"},
        {"Sec-Fetch-Site", "same-site", "Content-Type", "application/json", ConsoleWriteGuard.HEADER, "1"},
        {"Origin", base, "Content-Type", "application/json"},
        {"Sec-Fetch-Site", "same-origin", "Content-Type", "application/json"},
      };
      for (String[] headers : refused) {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(pause)).headers(headers)
            .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("POST with %s", String.join(" ", headers)).isEqualTo(403);
        assertThat(response.body()).contains("\"status\":403");
        assertThat(ConsoleApp.listener(app).isPauseRequested()).isFalse();
      }
      HttpResponse<String> form = http.send(HttpRequest.newBuilder(URI.create(pause))
          .headers("Origin", "http://evil.example", "Content-Type", "text/plain")
          .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(form.statusCode()).as("a form's text/plain body").isIn(403, 415);
      assertThat(ConsoleApp.listener(app).isPauseRequested()).isFalse();

      HttpResponse<String> console = http.send(HttpRequest.newBuilder(URI.create(pause))
          .headers("Origin", base, "Sec-Fetch-Site", "same-origin", "Content-Type", "application/json",
              ConsoleWriteGuard.HEADER, "1")
          .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(console.statusCode()).as("the console's own request: %s", console.body()).isEqualTo(200);
      assertThat(ConsoleApp.listener(app).isPauseRequested()).isTrue();

      HttpResponse<String> script = http.send(HttpRequest.newBuilder(URI.create(pause))
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString("{\"action\":\"resume\"}")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(script.statusCode()).as("a script's request (no browser headers) as before").isEqualTo(200);
      assertThat(ConsoleApp.listener(app).isPauseRequested()).isFalse();
      assertThat(get(base + "/actuator/objlog?heads=cached").body()).contains("\"writeOperations\":true");
    }
  }
}
