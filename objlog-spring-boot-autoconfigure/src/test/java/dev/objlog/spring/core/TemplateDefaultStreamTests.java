package dev.objlog.spring.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.InvalidArgumentException;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.messaging.support.MessageBuilder;

/** {@link ObjlogOperations} on the auto-configured template, and its optional default stream. */
class TemplateDefaultStreamTests {
  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
          ObjlogStreamsAutoConfiguration.class))
      .withPropertyValues("objlog.store.type=memory", "objlog.streams.orders.partitions=2",
          "objlog.streams.orders.writer.batch.max-delay=1ms", "objlog.streams.audit.writer.batch.max-delay=1ms");

  private static List<String> values(ObjlogStreams streams, String stream, int partition) {
    return streams.reader(stream).partition(partition).read(0, 100).records().stream()
        .map(r -> StandardCharsets.UTF_8.decode(r.value().duplicate()).toString()).toList();
  }

  @Test
  void sendDefaultAndAMessageWithoutAStreamWriteTheDefaultStream() {
    runner.withPropertyValues("objlog.template.default-stream=orders").run(context -> {
      ObjlogOperations operations = context.getBean(ObjlogOperations.class);
      assertThat(operations).isSameAs(context.getBean(ObjlogTemplate.class));
      assertThat(operations.getDefaultStream()).contains("orders");
      SendResult a = operations.sendDefault(1, "a").get(30, TimeUnit.SECONDS);
      SendResult b = operations.sendDefault("k", "b").get(30, TimeUnit.SECONDS);
      SendResult c = operations.send(MessageBuilder.withPayload("c").setHeader(ObjlogHeaders.PARTITION, 1).build())
          .get(30, TimeUnit.SECONDS);
      operations.send("audit", 0, "named").get(30, TimeUnit.SECONDS);
      operations.flush();
      assertThat(List.of(a.streamName(), b.streamName(), c.streamName())).containsOnly("orders");
      ObjlogStreams streams = context.getBean(ObjlogStreams.class);
      assertThat(values(streams, "orders", 1)).contains("a", "c");
      assertThat(values(streams, "orders", b.partition())).contains("b");
      assertThat(values(streams, "audit", 0)).containsExactly("named");
    });
  }

  @Test
  void withoutADefaultStreamSendsThatNameNoneFailWithATypedError() {
    runner.run(context -> {
      ObjlogOperations operations = context.getBean(ObjlogOperations.class);
      assertThat(operations.getDefaultStream()).isEmpty();
      assertThatThrownBy(() -> operations.sendDefault(0, "x")).isInstanceOf(NoDefaultStreamException.class)
          .hasMessageContaining("objlog.template.default-stream");
      assertThatThrownBy(() -> operations.sendDefault("k", "x")).isInstanceOf(NoDefaultStreamException.class);
      assertThatThrownBy(() -> operations.send(MessageBuilder.withPayload("x").build()))
          .isInstanceOf(NoDefaultStreamException.class).isInstanceOf(InvalidArgumentException.class);
      // the named sends are unchanged
      assertThat(operations.send("orders", 0, "named").get(30, TimeUnit.SECONDS).streamName()).isEqualTo("orders");
    });
  }

  @Test
  void aDefaultStreamThatIsNotConfiguredFailsStartup() {
    runner.withPropertyValues("objlog.template.default-stream=ordrs")
        .run(context -> assertThat(context).getFailure().rootCause()
            .hasMessageContaining("objlog.template.default-stream names \"ordrs\""));
  }
}
