package dev.objlog.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogHeaders;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Instant;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.messaging.handler.annotation.Header;

/** Repeated and meta-annotated listeners, start positions, record headers as arguments. */
class ListenerAnnotationTests {

  @Target(ElementType.METHOD)
  @Retention(RetentionPolicy.RUNTIME)
  @ObjlogListener(id = "meta", stream = "orders", startPosition = "lsn:1", autoStartup = "false")
  @interface OrdersFromLsnOne {}

  static class Listeners {
    final BlockingQueue<String> received = new LinkedBlockingQueue<>();

    @OrdersFromLsnOne
    void meta(String value) {
      received.add("meta:" + value);
    }

    @ObjlogListener(id = "first", stream = "orders", startPosition = "latest", autoStartup = "false")
    @ObjlogListener(id = "second", stream = "orders", startPosition = "timestamp:2000-01-01T00:00:00Z",
        autoStartup = "${second.auto-startup:false}")
    void repeated(String value, @Header(ObjlogHeaders.TIMESTAMP) Instant timestamp,
        @Header(value = "trace", required = false) String trace) {
      received.add("repeated:" + value + ":" + trace);
    }
  }

  @Test
  void metaAnnotationsAndRepeatedAnnotationsEachMakeAListener() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
            ObjlogStreamsAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class,
            ObjlogListenerAutoConfiguration.class))
        .withBean(Listeners.class)
        .withPropertyValues("objlog.store.type=memory", "objlog.streams.orders.writer.batch.max-delay=1ms",
            "objlog.listener.poll-interval=1h")
        .run(context -> {
          assertThat(context.getBean(ObjlogListenerEndpointRegistry.class).getListenerContainerIds())
              .containsExactlyInAnyOrder("meta", "first", "second");
          ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
          template.send("orders", 0, "zero").get(30, TimeUnit.SECONDS);
          template.send(org.springframework.messaging.support.MessageBuilder.withPayload("one")
              .setHeader(ObjlogHeaders.STREAM, "orders").setHeader("trace", "t-1").build()).get(30, TimeUnit.SECONDS);
          ObjlogListenerEndpointRegistry registry = context.getBean(ObjlogListenerEndpointRegistry.class);
          assertThat(registry.getListenerContainers()).noneMatch(ObjlogListenerContainer::isRunning);
          registry.start("meta");
          registry.start("first");
          registry.start("second");
          // "first" starts at latest: it must have read the head before "two" commits, or "two" is
          // rightly skipped.
          ObjlogListenerContainer first = java.util.Objects.requireNonNull(registry.getListenerContainer("first"));
          dev.objlog.testing.Await.until("\"first\" running", () -> first.getPartitionStatuses().stream()
              .anyMatch(s -> s.state() == ObjlogListenerContainer.PartitionState.RUNNING));
          template.send("orders", 0, "two").get(30, TimeUnit.SECONDS);
          BlockingQueue<String> received = context.getBean(Listeners.class).received;
          java.util.List<String> got = new java.util.ArrayList<>();
          while (got.size() < 6) {
            String v = received.poll(30, TimeUnit.SECONDS);
            assertThat(v).isNotNull();
            got.add(v);
          }
          // meta from LSN 1; "first" at latest (2); "second" from the first record since 2000 (0)
          assertThat(got).containsExactlyInAnyOrder("meta:one", "meta:two", "repeated:two:null",
              "repeated:zero:null", "repeated:one:t-1", "repeated:two:null");
        });
  }

  @Test
  void startPositionsParseOrFailWithTheForms() {
    assertThat(StartPosition.parse("EARLIEST")).isEqualTo(new StartPosition.Earliest());
    assertThat(StartPosition.parse("latest")).isEqualTo(new StartPosition.Latest());
    assertThat(StartPosition.parse("lsn:18446744073709551615")).isEqualTo(new StartPosition.Lsn(-1));
    assertThat(StartPosition.parse("timestamp:2026-05-01T10:00:00Z"))
        .isEqualTo(new StartPosition.Timestamp(Instant.parse("2026-05-01T10:00:00Z")));
    assertThatThrownBy(() -> StartPosition.parse("lsn:x")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> StartPosition.parse("beginning")).hasMessageContaining("use earliest, latest");
  }
}
