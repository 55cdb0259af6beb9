package dev.objlog.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.util.backoff.FixedBackOff;

/**
 * Annotation attributes: values that do not parse fail startup naming the listener and the
 * attribute; {@code #{...}} expressions and {@code __listener} resolve.
 */
class ListenerAttributeTests {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
          ObjlogStreamsAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class,
          ObjlogListenerAutoConfiguration.class))
      .withPropertyValues("objlog.store.type=memory", "objlog.streams.orders.partitions=2",
          "objlog.streams.orders.writer.batch.max-delay=1ms", "objlog.listener.poll-interval=1h");

  static class Checked {
    @ObjlogListener(id = "checked", stream = "orders", batch = "${t.batch:false}",
        autoStartup = "${t.auto-startup:false}", ackCount = "${t.ack-count:}", ackTime = "${t.ack-time:}",
        concurrency = "${t.concurrency:}", checkpointMode = "${t.checkpoint-mode:}",
        startPosition = "${t.start-position:}", errorHandler = "${t.error-handler:}",
        containerFactory = "${t.container-factory:}", transactionManager = "${t.transaction-manager:}")
    void on(String value) {
    }
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(delimiter = ';', value = {
      "t.batch; ture; batch; is not a boolean",
      "t.auto-startup; ture; autoStartup; is not a boolean",
      "t.auto-startup; yes; autoStartup; is not a boolean",
      "t.ack-count; ten; ackCount; is not an int",
      "t.ack-count; 0; ackCount; ackCount must be at least 1",
      "t.ack-time; soon; ackTime; soon",
      "t.ack-time; -1s; ackTime; must not be negative",
      "t.concurrency; two; concurrency; is not an int",
      "t.checkpoint-mode; RECORDS; checkpointMode; is not a checkpoint mode",
      "t.start-position; beginning; startPosition; use earliest, latest",
      "t.error-handler; missingHandler; errorHandler; no usable ListenerErrorHandler bean named \"missingHandler\"",
      "t.container-factory; missingFactory; containerFactory; no usable ObjlogListenerContainerFactory bean",
      "t.transaction-manager; missingManager; transactionManager; no usable PlatformTransactionManager bean"})
  void anAttributeThatDoesNotParseFailsStartupNamingTheListenerAndTheAttribute(String property, String value,
      String attribute, String why) {
    runner.withBean(Checked.class).withPropertyValues(property + "=" + value)
        .run(context -> assertThat(context).getFailure()
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("@ObjlogListener \"checked\"")
            .hasMessageContaining("attribute " + attribute + " = ")
            .hasMessageContaining(why));
  }

  static class BatchChecked {
    @ObjlogListener(id = "checked", stream = "orders", batch = "${t.batch}", autoStartup = "${t.auto-startup}")
    void on(java.util.List<String> values) {
    }
  }

  @Test
  void booleansParseIgnoringCaseAndSurroundingSpace() {
    runner.withBean(BatchChecked.class).withPropertyValues("t.batch= TRUE ", "t.auto-startup=False")
        .run(context -> {
          assertThat(context).hasNotFailed();
          ObjlogListenerContainer c = context.getBean(ObjlogListenerEndpointRegistry.class).getListenerContainer("checked");
          assertThat(c.settings().endpoint().isBatch()).isTrue();
          assertThat(c.isAutoStartup()).isFalse();
        });
  }

  /** Attributes from the bean itself ({@code __listener}) and from other beans and expressions. */
  static class FromExpressions {
    final BlockingQueue<String> received = new LinkedBlockingQueue<>();

    public String getStream() {
      return "orders";
    }

    public String listenerId() {
      return "expressions";
    }

    @ObjlogListener(id = "#{__listener.listenerId()}", stream = "#{__listener.stream}",
        partitions = "#{'0-' + (1)}", concurrency = "#{1 + 1}", ackTime = "#{T(java.time.Duration).ofSeconds(3)}",
        checkpointMode = "#{'time'}", batch = "#{false}", autoStartup = "#{${t.start:true}}",
        errorHandler = "#{@quietHandler}")
    void on(String value) {
      received.add(value);
    }
  }

  @Test
  void expressionsResolveWithTheListenerBeanAsListener() {
    ListenerErrorHandler quiet = new DefaultListenerErrorHandler(new FixedBackOff(0, 0), null);
    runner.withBean(FromExpressions.class).withBean("quietHandler", ListenerErrorHandler.class, () -> quiet)
        .run(context -> {
          assertThat(context).hasNotFailed();
          ObjlogListenerContainer c = context.getBean(ObjlogListenerEndpointRegistry.class)
              .getListenerContainer("expressions");
          assertThat(c).isNotNull();
          assertThat(c.getStreamName()).isEqualTo("orders");
          assertThat(c.getAssignedPartitions().stream().boxed().toList()).containsExactly(0, 1);
          assertThat(c.getCheckpointMode()).isEqualTo(CheckpointMode.TIME);
          assertThat(c.settings().ackTime()).isEqualTo(Duration.ofSeconds(3));
          assertThat(c.settings().endpoint().getConcurrency()).isEqualTo(2);
          assertThat(c.settings().errorHandler()).isSameAs(quiet);
          context.getBean(ObjlogTemplate.class).send("orders", 1, "x").get(30, TimeUnit.SECONDS);
          assertThat(context.getBean(FromExpressions.class).received.poll(30, TimeUnit.SECONDS)).isEqualTo("x");
        });
  }

  @Test
  void anExpressionOfTheWrongTypeFailsNamingTheAttribute() {
    runner.withBean(FromExpressions.class)
        .withBean("quietHandler", Integer.class, () -> 7)
        .run(context -> assertThat(context).getFailure()
            .hasMessageContaining("@ObjlogListener \"expressions\": attribute errorHandler")
            .hasMessageContaining("expected a bean name or a ListenerErrorHandler, but got a java.lang.Integer"));
  }
}
