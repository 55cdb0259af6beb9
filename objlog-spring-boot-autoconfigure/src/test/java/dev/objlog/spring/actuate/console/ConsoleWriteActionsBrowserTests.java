package dev.objlog.spring.actuate.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

/**
 * The console's write actions in a real browser, with the endpoint's access unrestricted: they
 * appear, ask for confirmation, and act through the endpoint; and a page of another origin cannot
 * make the browser call them, neither with a form nor with {@code fetch}.
 */
class ConsoleWriteActionsBrowserTests extends ConsoleBrowserSession {
  ConsoleWriteActionsBrowserTests() {
    super("management.endpoint.objlog.access=unrestricted");
  }

  private void open() {
    browser.driver.get(ConsoleApp.consoleUrl(app));
    browser.waitFor("the listener", d -> browser.text("section.listener[data-listener='" + ConsoleApp.LISTENER + "'] h3")
        != null);
  }

  private String listenerHeading() {
    return browser.text("section.listener[data-listener='" + ConsoleApp.LISTENER + "'] h3");
  }

  @Test
  void pauseAndResumeAskForConfirmationAndActThroughTheEndpoint() {
    open();
    assertThat(browser.text("#access")).startsWith("unrestricted");
    browser.waitFor("the pause button", d -> !d.findElements(By.cssSelector("button.write[data-action='pause']")).isEmpty());

    browser.driver.findElement(By.cssSelector("button.write[data-action='pause']")).click();
    browser.waitFor("a confirmation", d -> d.switchTo().alert()).dismiss();
    assertThat(ConsoleApp.listener(app).isPauseRequested()).as("a dismissed confirmation sends nothing").isFalse();

    browser.driver.findElement(By.cssSelector("button.write[data-action='pause']")).click();
    browser.waitFor("a confirmation", d -> d.switchTo().alert()).accept();
    browser.waitFor("the listener shown paused", d -> listenerHeading().endsWith("paused"));
    assertThat(ConsoleApp.listener(app).isPauseRequested()).isTrue();

    browser.waitFor("the resume button", d -> !d.findElements(By.cssSelector("button.write[data-action='resume']")).isEmpty());
    browser.driver.findElement(By.cssSelector("button.write[data-action='resume']")).click();
    browser.waitFor("a confirmation", d -> d.switchTo().alert()).accept();
    browser.waitFor("the listener shown running", d -> listenerHeading().endsWith("running"));
    assertThat(ConsoleApp.listener(app).isPauseRequested()).isFalse();
  }

  @Test
  void requestingRetentionFromTheSegmentStripTrimsThePartition() throws Exception {
    for (int i = 0; i < 4; i++) {
      ConsoleApp.send(app, "orders", 1, 2); // one flush, one segment each
    }
    open();
    browser.waitFor("orders/1 written", d -> "8".equals(browser.text(
        "section.stream[data-stream='orders'] tr[data-partition='1'] td[data-field='nextLsn']")));
    browser.driver.findElement(By.cssSelector("section.stream[data-stream='orders'] tr[data-partition='1']"
        + " button.open-segments")).click();
    browser.waitFor("the retention input", d -> !d.findElements(By.id("retention-lsn")).isEmpty());
    browser.driver.findElement(By.id("retention-lsn")).sendKeys("4");
    browser.driver.findElement(By.id("request-retention")).click();
    assertThat(browser.waitFor("a confirmation", d -> d.switchTo().alert()).getText()).contains("below LSN 4");
    browser.driver.switchTo().alert().accept();
    browser.waitFor("the result", d -> browser.text("#action-result").contains("applied: oldest LSN now 4"));
    browser.waitFor("the strip starts at the new floor", d -> browser.text("#segments-summary").startsWith("LSN 4 (retention floor)"));

    browser.driver.findElement(By.id("reclaim-now")).click();
    browser.waitFor("a confirmation", d -> d.switchTo().alert()).accept();
    browser.waitFor("the reclaim result", d -> browser.text("#action-result").startsWith("Reclaim deleted"));
  }

  @Test
  void aPageOfAnotherOriginCannotTriggerAWrite() throws Exception {
    String target = "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port")
        + "/actuator/objlog/listeners/" + ConsoleApp.LISTENER;
    // A hostile page: a fetch with the console's header and a JSON body, and a plain form POST
    // whose text/plain body looks like JSON. Served from another origin (another host name and port).
    String page = "<!DOCTYPE html><html><body><p id='result'></p>"
        + "<form id='f' method='POST' enctype='text/plain' action='" + target + "'>"
        + "<input name='{\"action\":\"pause\",\"x\":\"' value='\"}'></form><script>"
        + "fetch('" + target + "', {method: 'POST', headers: {'Content-Type': 'application/json',"
        + " 'X-Objlog-Console': '1'}, body: JSON.stringify({action: 'pause'})})"
        + ".then(r => { document.getElementById('result').textContent = 'fetch answered ' + r.status; },"
        + " e => { document.getElementById('result').textContent = 'fetch refused'; });"
        + "</script></body></html>";
    HttpServer hostile = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    hostile.createContext("/", exchange -> {
      byte[] body = page.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    hostile.start();
    try {
      browser.driver.get("http://localhost:" + hostile.getAddress().getPort() + "/");
      // The browser asks first (CORS preflight) and, refused, never sends the POST.
      browser.waitFor("the fetch's outcome", d -> !browser.text("#result").isEmpty());
      assertThat(browser.text("#result")).isEqualTo("fetch refused");
      // The form navigates the window to the endpoint's answer: refused (a text/plain body is no JSON).
      browser.driver.executeScript("document.getElementById('f').submit();");
      browser.waitFor("the form's answer", d -> d.getCurrentUrl().startsWith(target)
          && d.findElement(By.tagName("body")).getText().matches("(?s).*(403|415).*"));
      assertThat(ConsoleApp.listener(app).isPauseRequested()).as("neither request paused the listener").isFalse();
    } finally {
      hostile.stop(0);
    }
  }
}
