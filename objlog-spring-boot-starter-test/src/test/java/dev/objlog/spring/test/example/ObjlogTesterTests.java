package dev.objlog.spring.test.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.core.UnknownStreamException;
import dev.objlog.spring.listener.ObjlogListener;
import dev.objlog.spring.listener.checkpoint.StoredCheckpoint;
import dev.objlog.spring.test.ObjlogTest;
import dev.objlog.spring.test.ObjlogTester;
import dev.objlog.spring.test.TestRecord;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The tester on the slice. The methods share one context (and so one store): each uses
 * partitions of its own (the key customer-7 goes to partition 7).
 */
@ObjlogTest(properties = "objlog.streams.orders.partitions=8")
class ObjlogTesterTests {
  /** An await that is meant to run out: short, because nothing will ever arrive. */
  private static final Duration NEVER = Duration.ofMillis(200);

  @Autowired
  ObjlogTemplate template;

  @Autowired
  ObjlogTester objlog;

  @Test
  void readAllReturnsEveryRecordOfAPartitionInLsnOrderWithItsKey() throws Exception {
    template.send("orders", "customer-7", "first").get(30, TimeUnit.SECONDS);
    int partition = template.send("orders", "customer-7", "second").get(30, TimeUnit.SECONDS).partition();

    List<TestRecord> held = objlog.readAll("orders", partition);
    assertThat(held).extracting(TestRecord::valueAsString).containsExactly("first", "second");
    assertThat(held).extracting(TestRecord::lsn).containsExactly(0L, 1L);
    assertThat(held).allSatisfy(r -> assertThat(r.key()).isEqualTo("customer-7"));
    assertThat(held.get(0)).hasToString("orders/" + partition + "@0 key=customer-7 value=\"first\"");
    assertThat(objlog.readAll("orders")).containsAll(held);
  }

  @Test
  void awaitRecordsReturnsOnceThePartitionHoldsTheCount() throws Exception {
    CompletableFuture<Void> sends = CompletableFuture.runAsync(() -> {
      for (int i = 0; i < 5; i++) {
        template.send("orders", 0, "r" + i).join();
      }
    });
    assertThat(objlog.awaitRecords("orders", 0, 5)).extracting(TestRecord::valueAsString)
        .containsExactly("r0", "r1", "r2", "r3", "r4");
    sends.get(30, TimeUnit.SECONDS);
  }

  @Test
  void anAwaitOnRecordsThatNeverComeFailsListingWhatThePartitionHolds() throws Exception {
    for (String value : List.of("a", "b", "c")) {
      template.send("orders", 1, value).get(30, TimeUnit.SECONDS);
    }
    assertThatThrownBy(() -> objlog.withTimeout(NEVER).awaitRecords("orders", 1, 10))
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith("expected partition 1 of stream 'orders' to hold at least 10 records within PT0.2S,"
            + " but it holds 3 records:")
        .hasMessageContaining("orders/1@0 value=\"a\"")
        .hasMessageContaining("orders/1@1 value=\"b\"")
        .hasMessageContaining("orders/1@2 value=\"c\"");
  }

  @Test
  void anAwaitOnAnEmptyPartitionSaysItHoldsNothing() {
    assertThatThrownBy(() -> objlog.withTimeout(NEVER).awaitRecords("orders", 5, 1))
        .isInstanceOf(AssertionError.class)
        .hasMessageEndingWith("but it holds 0 records");
  }

  @Test
  void aFailureListsOnlyTheNewestRecordsOfALongPartition() throws Exception {
    for (int i = 0; i < 25; i++) {
      template.send("orders", 6, "v" + i);
    }
    template.flush();
    assertThatThrownBy(() -> objlog.withTimeout(NEVER).awaitRecords("orders", 6, 26))
        .hasMessageContaining("holds 25 records:\n  ... 5 older records\n  orders/6@5 value=\"v5\"")
        .hasMessageEndingWith("orders/6@24 value=\"v24\"")
        .hasMessageNotContaining("value=\"v4\"");
  }

  @Test
  void awaitCheckpointReturnsOnceTheListenerCheckpointedPastTheLsn() throws Exception {
    for (int i = 0; i < 3; i++) {
      template.send("orders", 3, "c" + i).get(30, TimeUnit.SECONDS);
    }
    StoredCheckpoint checkpoint = objlog.awaitCheckpoint("order-listener", 3, 3);
    assertThat(checkpoint.checkpoint().nextLsn()).isEqualTo(3);
    assertThat(checkpoint.key().listenerId()).isEqualTo("order-listener");
  }

  @Test
  void anAwaitOnACheckpointThatNeverComesFailsWithWhatIsStoredAndHeld() throws Exception {
    template.send("orders", 4, "unread").get(30, TimeUnit.SECONDS);
    assertThatThrownBy(() -> objlog.withTimeout(NEVER).awaitCheckpoint("idle-listener", 4, 1))
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith("expected listener 'idle-listener' to checkpoint partition 4 of stream 'orders' at"
            + " next LSN 1 or later within PT0.2S, but its stored checkpoint is absent")
        .hasMessageContaining("listener STOPPED")
        .hasMessageEndingWith("the partition holds 1 records:\n  orders/4@0 value=\"unread\"");
  }

  @Test
  void anUnknownListenerFailsNamingTheListeners() {
    assertThatThrownBy(() -> objlog.awaitCheckpoint("nobody", 0, 1))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("no listener has the id 'nobody'")
        .hasMessageContaining("order-listener")
        .hasMessageContaining("idle-listener");
  }

  @Test
  void unknownStreamsAndPartitionsAreRefused() {
    assertThatThrownBy(() -> objlog.readAll("payments")).isInstanceOf(UnknownStreamException.class);
    assertThatThrownBy(() -> objlog.readAll("orders", 8))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("stream 'orders' has partitions 0 to 7; there is no partition 8");
    assertThatThrownBy(() -> objlog.withTimeout(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @TestConfiguration
  static class IdleListenerConfiguration {
    @Bean
    IdleListener idleListener() {
      return new IdleListener();
    }
  }

  /** A listener that never starts, so it never checkpoints. */
  static class IdleListener {
    @ObjlogListener(id = "idle-listener", stream = "orders", autoStartup = "false")
    void onOrder(String order) {}
  }
}
