package dev.objlog.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.Objlog;
import dev.objlog.replica.SnapshotStore;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogHeaders;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.messaging.handler.annotation.Header;

/** The example of docs/LISTENERS.md, "Starting from a snapshot", as it is printed there. */
class ListenerSnapshotExampleTests {
  @TempDir Path root;

  // --- docs/LISTENERS.md "Starting from a snapshot" example: begin
  static class OrdersView implements SnapshotAwareListener {
    final Map<String, String> view = new ConcurrentHashMap<>();
    private final Objlog log;

    OrdersView(ObjlogStreams streams) {
      this.log = streams.log("orders");
    }

    @ObjlogListener(id = "orders-view", stream = "orders", startPosition = "snapshot")
    void on(String value, @Header(ObjlogHeaders.PARTITION) int partition, @Header(ObjlogHeaders.LSN) long lsn) {
      String[] kv = value.split("=", 2);
      view.put(kv[0], kv[1]);
      if (lsn % 5 == 4) { // the view now holds everything through lsn
        SnapshotStore.inBucket(log.store()).publish(log, partition, lsn, encode(view));
      }
    }

    @Override
    public void onSnapshot(ListenerSnapshot snapshot) {
      view.clear();
      view.putAll(decode(snapshot.payload()));
    }

    static byte[] encode(Map<String, String> view) {
      return new TreeMap<>(view).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
          .collect(Collectors.joining("\n")).getBytes(StandardCharsets.UTF_8);
    }

    static Map<String, String> decode(byte[] payload) {
      return new String(payload, StandardCharsets.UTF_8).lines().map(l -> l.split("=", 2))
          .collect(Collectors.toMap(kv -> kv[0], kv -> kv[1]));
    }
  }
  // --- docs/LISTENERS.md "Starting from a snapshot" example: end

  private ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
            ObjlogStreamsAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class,
            ObjlogListenerAutoConfiguration.class))
        .withPropertyValues(
            "objlog.store.type=filesystem",
            "objlog.store.filesystem.root=" + root,
            "objlog.streams.orders.partitions=1",
            "objlog.streams.orders.writer.batch.max-delay=1ms",
            "objlog.listener.poll-interval=1h",
            "objlog.listener.checkpoint-errors.expired=snapshot");
  }

  private static void awaitTrue(java.util.function.BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition within 30s").isLessThan(deadline);
      Thread.sleep(5);
    }
  }

  @Test
  void theExampleInListenersMdIsThisOne() throws Exception {
    List<String> lines = Files.readAllLines(
        Path.of("src/test/java/dev/objlog/spring/listener/ListenerSnapshotExampleTests.java"));
    int begin = lines.indexOf("  // --- docs/LISTENERS.md \"Starting from a snapshot\" example: begin");
    int end = lines.indexOf("  // --- docs/LISTENERS.md \"Starting from a snapshot\" example: end");
    String example = lines.subList(begin + 1, end).stream().map(l -> l.isBlank() ? "" : l.substring(2))
        .collect(Collectors.joining("\n"));
    assertThat(Files.readString(Path.of("../docs/LISTENERS.md"))).contains(example);
  }

  @Test
  void aFreshViewStartsFromTheSnapshotAndEndsInTheSameState() throws Exception {
    Map<String, String> complete = new TreeMap<>();
    runner().withBean(OrdersView.class).run(context -> {
      ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
      for (int i = 0; i < 12; i++) {
        template.send("orders", 0, "order" + (i % 4) + "=state" + i).get(30, TimeUnit.SECONDS);
      }
      OrdersView view = context.getBean(OrdersView.class);
      awaitTrue(() -> "state11".equals(view.view.get("order3")));
      complete.putAll(view.view);
      Objlog log = context.getBean(ObjlogStreams.class).log("orders");
      awaitTrue(() -> log.latestSnapshot(0).map(m -> m.throughLsn() == 9).orElse(false));
      log.requestRetention(0, 1, 12, log.snapshotGate());
      template.applyRetention("orders", 0);
      assertThat(log.head(0).orElseThrow().oldestLsn()).as("order0 and order1 are trimmed").isEqualTo(10);
    });
    // A new process with no saved checkpoint (on a filesystem store checkpoints default to the
    // bucket, where the first run saved one; in memory nothing survives), so the listener starts
    // from the snapshot.
    runner().withBean(OrdersView.class).withPropertyValues("objlog.checkpoint.store=memory")
        .run(context -> {
          OrdersView fresh = context.getBean(OrdersView.class);
          awaitTrue(() -> "state11".equals(fresh.view.get("order3")));
          assertThat(fresh.view).isEqualTo(complete);
          assertThat(context.getBean(ObjlogListenerEndpointRegistry.class).isInExpectedState("orders-view")).isTrue();
        });
  }
}
