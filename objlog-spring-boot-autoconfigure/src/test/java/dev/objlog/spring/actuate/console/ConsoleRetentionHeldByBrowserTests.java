package dev.objlog.spring.actuate.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.lifecycle.ObjlogLifecycleScheduler;
import dev.objlog.spring.listener.ObjlogListenerContainer;
import dev.objlog.spring.listener.ObjlogListenerEndpointRegistry;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

/**
 * Until-consumed retention on {@code audit}: while its listener is held at a gate before its first
 * record, the console names it as what holds retention back; once the listener has applied every
 * record and the schedule ran again, nothing is named. The schedule runs when the test says
 * ({@code runNow}); its interval is an hour.
 */
class ConsoleRetentionHeldByBrowserTests extends ConsoleBrowserSession {
  ConsoleRetentionHeldByBrowserTests() {
    super("objlog.lifecycle.enabled=true", "objlog.lifecycle.interval=1h",
        "objlog.streams.audit.writer.batch.max-records=1",
        "objlog.streams.audit.retention.until-consumed.enabled=true");
  }

  private String status() {
    return String.valueOf(browser.text("section.stream[data-stream='audit'] tr[data-partition='0'] td[data-field='status']"));
  }

  @Test
  void namesTheListenerThatHoldsRetentionBackUntilItHasAppliedEveryRecord() throws Exception {
    ConsoleApp.GatedListener listener = app.getBean(ConsoleApp.GatedListener.class);
    ObjlogLifecycleScheduler scheduler = app.getBean(ObjlogLifecycleScheduler.class);
    listener.close();
    try {
      ConsoleApp.send(app, "audit", 0, 3);
      scheduler.runNow();
      assertThat(scheduler.retentionHeldBy("audit", 0)).as("the gated listener holds audit/0").isPresent();

      browser.driver.get(ConsoleApp.consoleUrl(app));
      browser.waitFor("audit/0 names what holds retention back", d ->
          !d.findElements(By.cssSelector("section.stream[data-stream='audit'] [data-field='retentionHeldBy']")).isEmpty());
      assertThat(status()).contains("retention held by " + ConsoleApp.LISTENER + " at LSN 0 for ");
    } finally {
      listener.open();
    }
    ObjlogListenerContainer container =
        app.getBean(ObjlogListenerEndpointRegistry.class).getListenerContainer(ConsoleApp.LISTENER);
    browser.waitFor("the listener checkpointed all three records", d -> container.getPartitionStatuses().stream()
        .anyMatch(s -> s.partition() == 0 && s.checkpointed() == 3));
    scheduler.runNow();
    assertThat(scheduler.retentionHeldBy("audit", 0)).as("nothing left unapplied").isEmpty();
    browser.waitFor("audit/0 names nothing any more", d ->
        d.findElements(By.cssSelector("section.stream[data-stream='audit'] [data-field='retentionHeldBy']")).isEmpty());
    assertThat(status()).isEqualTo("readable");
    browser.screenshot("retention-held-by");
  }
}
