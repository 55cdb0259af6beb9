package dev.objlog.spring.actuate.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;

/**
 * The console as a person sees it in a real browser (headless Chromium), with the endpoint's
 * default read-only access: every stream's partitions, numbers that follow new records, a
 * listener's lag going back to zero, one partition's segments, no write actions, and a layout that
 * fits a phone's width. Each wait polls the page for what should appear, within a bound.
 */
class ConsoleBrowserTests extends ConsoleBrowserSession {
  private void open() {
    browser.driver.get(ConsoleApp.consoleUrl(app));
    browser.waitFor("the page shows the store", d -> "answering".equals(browser.text("#store-health")));
  }

  private String field(String stream, int partition, String field) {
    return String.valueOf(browser.text("section.stream[data-stream='" + stream + "'] tr[data-partition='"
        + partition + "'] td[data-field='" + field + "']"));
  }

  private String listenerField(int partition, String field) {
    return String.valueOf(browser.text("tr[data-listener='" + ConsoleApp.LISTENER + "'][data-partition='"
        + partition + "'] td[data-field='" + field + "']"));
  }

  @Test
  void showsEveryStreamsPartitionsAndTheirNumbersChangeAfterMoreRecords() throws Exception {
    open();
    browser.waitFor("orders shows 2 partitions and audit 1", d ->
        d.findElements(By.cssSelector("section.stream[data-stream='orders'] tr.partition")).size() == 2
            && d.findElements(By.cssSelector("section.stream[data-stream='audit'] tr.partition")).size() == 1);
    ConsoleApp.send(app, "metrics", 0, 3);
    browser.waitFor("metrics/0 shows next LSN 3", d -> field("metrics", 0, "nextLsn").equals("3"));
    String generation = field("metrics", 0, "generation");
    assertThat(field("metrics", 0, "records")).isEqualTo("3");
    assertThat(field("metrics", 0, "writerLease")).as("no writer leases configured").isEqualTo("no leases");

    ConsoleApp.send(app, "metrics", 0, 4);
    browser.waitFor("metrics/0 shows next LSN 7 after 4 more records", d -> field("metrics", 0, "nextLsn").equals("7"));
    assertThat(field("metrics", 0, "generation")).isNotEqualTo(generation);
    assertThat(field("metrics", 0, "newestRecordAge")).endsWith("ago");
    assertThat(field("metrics", 0, "reachableBytes")).matches("[0-9.]+ (B|KiB)");
    assertThat(field("metrics", 0, "localWriter")).isEqualTo("open");
    assertThat(field("orders", 0, "status")).contains("not created yet");
  }

  @Test
  void lagReachesZeroWhenTheListenerCatchesUp() throws Exception {
    open();
    ConsoleApp.GatedListener listener = app.getBean(ConsoleApp.GatedListener.class);
    listener.close();
    try {
      ConsoleApp.send(app, "audit", 0, 5);
      browser.waitFor("the held-back listener shows a lag", d -> !listenerField(0, "lagRecords").equals("0")
          && !listenerField(0, "lagRecords").equals("null"));
      assertThat(listenerField(0, "state")).isEqualTo("running");
      assertThat(listenerField(0, "owner")).isEqualTo("this instance");
    } finally {
      listener.open();
    }
    browser.waitFor("the lag returns to zero", d -> listenerField(0, "lagRecords").equals("0")
        && listenerField(0, "lagTime").equals("0 s"));
    browser.waitFor("the checkpoint reaches the head", d -> listenerField(0, "checkpoint").equals("5"));
    assertThat(browser.driver.executeScript("return document.querySelector(arguments[0]).getAttribute('aria-label');",
        "tr[data-listener='" + ConsoleApp.LISTENER + "'] svg.spark")).asString().contains("lag over the last");
    browser.driver.manage().window().setSize(new Dimension(1280, 1500));
    try {
      browser.screenshot("overview");
    } finally {
      browser.driver.manage().window().setSize(new Dimension(1280, 1000));
    }
  }

  @Test
  void onePartitionsSegmentStripLoadsOnDemand() throws Exception {
    ConsoleApp.send(app, "orders", 1, 2);
    open();
    browser.waitFor("the orders partitions", d ->
        d.findElements(By.cssSelector("section.stream[data-stream='orders'] tr.partition")).size() == 2);
    browser.driver.findElement(By.cssSelector("section.stream[data-stream='orders'] tr[data-partition='1']"
        + " button.open-segments")).click();
    browser.waitFor("segments of orders/1 listed", d -> !d.findElements(By.cssSelector("#segments-table tbody tr")).isEmpty()
        && d.findElement(By.id("segments-summary")).getText().contains("retention floor"));
    assertThat(browser.driver.findElement(By.id("segments-title")).getText()).isEqualTo("Segments of orders / partition 1");
    assertThat(browser.driver.findElements(By.cssSelector("#segments-strip svg rect"))).isNotEmpty();
    assertThat(browser.driver.findElement(By.id("segments-summary")).getText()).contains("no retention request pending");
    browser.waitFor("the segment folder counted", d -> d.findElement(By.id("segments-folder")).getText()
        .contains("reclaim has nothing to delete"));
    List<WebElement> states = browser.driver.findElements(By.cssSelector("#segments-table td[data-field='state']"));
    assertThat(states).extracting(WebElement::getText).containsOnly("reachable");
    browser.screenshot("segments");
  }

  @Test
  void showsTheMemoryBudgetInNumbersAndWords() throws Exception {
    open();
    ConsoleApp.send(app, "orders", 1, 1); // an open writer holds a reservation of the budget
    browser.waitFor("the memory budget section", d -> d.findElement(By.id("memory")).isDisplayed()
        && !"…".equals(browser.text("#memory-capacity")));
    assertThat(browser.text("#memory-capacity")).matches("[0-9.]+ (MiB|GiB)");
    assertThat(browser.text("#memory-used")).matches("[0-9.]+ (B|KiB|MiB|GiB) \\([0-9]+ %\\)");
    assertThat(browser.text("#memory-state")).as("the budget's fill in words")
        .isIn("room to spare", "filling", "nearly full: writers may wait");
    browser.waitFor("the open writer's reservation", d -> !"0 B".equals(browser.text("#memory-reserved")));
    assertThat(browser.text("#memory-parts")).contains("writers").contains("blocks").contains("catalog-pages");
    assertThat(browser.text("#memory-wait")).as("nothing waited for memory").isEqualTo("never");
  }

  @Test
  void readOnlyAccessShowsNoWriteActions() throws Exception {
    open();
    browser.waitFor("the listener", d -> !d.findElements(By.cssSelector("section.listener")).isEmpty());
    assertThat(browser.driver.findElement(By.id("access")).getText()).startsWith("read-only");
    assertThat(browser.driver.findElements(By.cssSelector("button.write"))).isEmpty();
    browser.driver.findElement(By.cssSelector("section.stream[data-stream='audit'] button.open-segments")).click();
    browser.waitFor("the segment panel", d -> d.findElement(By.id("segments-summary")).getText().contains("LSN"));
    assertThat(browser.driver.findElements(By.cssSelector("button.write"))).isEmpty();
    assertThat(browser.driver.findElements(By.id("retention-lsn"))).isEmpty();
  }

  @Test
  void fitsANarrowScreenWithoutSidewaysScrolling() throws Exception {
    browser.driver.manage().window().setSize(new Dimension(390, 844));
    try {
      open();
      browser.waitFor("the partitions", d -> !d.findElements(By.cssSelector("tr.partition")).isEmpty());
      Object overflow = browser.driver.executeScript(
          "return document.documentElement.scrollWidth - document.documentElement.clientWidth;");
      assertThat(((Number) overflow).longValue()).as("pixels the page is wider than the screen").isLessThanOrEqualTo(0);
      browser.screenshot("narrow");
    } finally {
      browser.driver.manage().window().setSize(new Dimension(1280, 1000));
    }
  }
}
