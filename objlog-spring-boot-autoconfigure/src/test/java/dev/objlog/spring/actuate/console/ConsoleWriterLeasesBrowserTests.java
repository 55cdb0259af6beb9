package dev.objlog.spring.actuate.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.core.ObjlogTemplate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two instances writing {@code orders} with writer leases in the bucket: the console of the second
 * names the first as the owner of the partitions the first holds. The rounds are an hour apart, so
 * nothing is handed over while the test looks: the first, alone when it started, holds both
 * partitions, and the second's first round read their leases.
 */
class ConsoleWriterLeasesBrowserTests extends ConsoleBrowserSession {
  private static final String[] LEASES = {
      "objlog.checkpoint.store=bucket", // shared by both instances (an embedded database would not be)
      "objlog.streams.orders.writer.lease.enabled=true",
      "objlog.streams.orders.writer.lease.ttl=2h",
      "objlog.streams.orders.writer.lease.renew-interval=1h"};

  private ConfigurableApplicationContext second;

  ConsoleWriterLeasesBrowserTests() {
    super(LEASES);
  }

  @AfterAll
  void stopSecond() {
    if (second != null) {
      second.close();
    }
  }

  private String writerLease(int partition) {
    return String.valueOf(browser.text("section.stream[data-stream='orders'] tr[data-partition='" + partition
        + "'] td[data-field='writerLease']"));
  }

  @Test
  void aPartitionLeasedByAnotherInstanceShowsThatInstancesOwnerId() {
    String firstOwner = app.getBean(ObjlogTemplate.class).writerLeaseOwner().orElseThrow();
    second = ConsoleApp.start(root, LEASES);
    String secondOwner = second.getBean(ObjlogTemplate.class).writerLeaseOwner().orElseThrow();
    assertThat(secondOwner).isNotEqualTo(firstOwner);

    browser.driver.get(ConsoleApp.consoleUrl(second));
    browser.waitFor("the second instance's console shows orders/0's writer lease",
        d -> writerLease(0).contains("instance"));
    assertThat(writerLease(0)).isEqualTo(firstOwner + " (another instance, epoch 1)");
    assertThat(writerLease(1)).isEqualTo(firstOwner + " (another instance, epoch 1)");

    browser.driver.get(ConsoleApp.consoleUrl(app));
    browser.waitFor("the first instance's console shows orders/0's writer lease",
        d -> writerLease(0).contains("instance"));
    assertThat(writerLease(0)).isEqualTo(firstOwner + " (this instance, epoch 1)");
  }
}
