package dev.objlog.spring.autoconfigure.streams;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.Objlog;
import dev.objlog.WriterOptions;
import dev.objlog.read.Freshness;
import dev.objlog.spring.autoconfigure.FailureAnalyses;
import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.core.LocalWriterStatus;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.core.PartitionNotWritableException;
import dev.objlog.spring.core.RecordValueConverter;
import dev.objlog.spring.core.SendResult;
import dev.objlog.store.ObjectStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

class ObjlogStreamsAutoConfigurationTests {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class, ObjlogStreamsAutoConfiguration.class))
          .withPropertyValues("objlog.store.type=memory");

  @Test
  void oneStreamGivesStreamsTemplateAndAPlainObjlog() {
    runner.withPropertyValues("objlog.streams.orders.stream-id=shop/orders", "objlog.streams.orders.partitions=4")
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(ObjlogStreams.class).hasSingleBean(ObjlogTemplate.class);
          ObjlogStreams streams = context.getBean(ObjlogStreams.class);
          assertThat(streams.names()).containsExactly("orders");
          assertThat(streams.stream("orders").streamId()).isEqualTo("shop/orders");
          assertThat(streams.stream("orders").partitions()).isEqualTo(4);
          assertThat(context.getBean(Objlog.class)).isSameAs(streams.log("orders"));
          assertThat(streams.store()).isSameAs(context.getBean(ObjectStore.class));
        });
  }

  @Test
  void noPlainObjlogWithTwoStreamsOrNone() {
    runner.withPropertyValues("objlog.streams.orders.partitions=2", "objlog.streams.audit.partitions=1")
        .run(context -> {
          assertThat(context).hasNotFailed().doesNotHaveBean(Objlog.class);
          assertThat(context.getBean(ObjlogStreams.class).names()).containsExactly("orders", "audit");
        });
    runner.run(context -> {
      assertThat(context).hasNotFailed().doesNotHaveBean(Objlog.class).hasSingleBean(ObjlogTemplate.class);
      assertThat(context.getBean(ObjlogStreams.class).names()).isEmpty();
    });
  }

  @Test
  void writerAndReaderPropertiesReachTheEngine() {
    runner.withPropertyValues(
            "objlog.streams.orders.partitions=8",
            "objlog.streams.orders.writer.partitions=0-3,6",
            "objlog.streams.orders.writer.batch.max-delay=5ms",
            "objlog.streams.orders.writer.batch.max-size=1MB",
            "objlog.streams.orders.writer.batch.max-records=100",
            "objlog.streams.orders.writer.backpressure.max-pending-segments=2",
            "objlog.streams.orders.writer.backpressure.max-pending-size=32MB",
            "objlog.streams.orders.writer.backpressure.fail-when-full=true",
            "objlog.streams.orders.writer.adaptive-delay.enabled=true",
            "objlog.streams.orders.writer.adaptive-delay.max=50ms",
            "objlog.streams.orders.writer.timeouts.catalog-publish=10s",
            "objlog.reader.poll-interval=200ms",
            "objlog.reader.block-cache-size=0",
            "objlog.reader.read-ahead-blocks=2")
        .run(context -> {
          assertThat(context).hasNotFailed();
          ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
          assertThat(template.writablePartitions("orders").stream()).containsExactly(0, 1, 2, 3, 6);
          assertThat(template.writerStatus("orders", 4).state()).isEqualTo(LocalWriterStatus.State.NOT_WRITTEN_HERE);
          org.assertj.core.api.Assertions.assertThatThrownBy(() -> template.send("orders", 7, "x"))
              .isInstanceOf(PartitionNotWritableException.class);

          var properties = context.getBean(dev.objlog.spring.autoconfigure.ObjlogProperties.class);
          WriterOptions options = properties.getStreams().get("orders").getWriter().toWriterOptions();
          assertThat(options.batch()).isEqualTo(new WriterOptions.BatchPolicy(Duration.ofMillis(5), 1L << 20, 100));
          assertThat(options.backpressure()).isEqualTo(new WriterOptions.BackpressurePolicy(2, 32L << 20, true));
          assertThat(options.adaptiveDelay())
              .isEqualTo(new WriterOptions.AdaptiveDelay(true, Duration.ofMillis(1), Duration.ofMillis(50), 1.0));
          assertThat(options.timeouts().catalogPublish()).isEqualTo(Duration.ofSeconds(10));

          ObjlogStreams streams = context.getBean(ObjlogStreams.class);
          assertThat(streams.readerOptions().pollInterval()).isEqualTo(Duration.ofMillis(200));
          assertThat(streams.readerOptions().blockCacheBytes()).isZero();
          assertThat(streams.reader("orders").options()).isEqualTo(streams.readerOptions());
        });
  }

  @Test
  void sendsAreDurableAndRecordMetersInTheApplicationsRegistry() {
    runner.withUserConfiguration(MeterRegistryConfiguration.class)
        .withPropertyValues("objlog.streams.orders.partitions=2", "objlog.streams.orders.writer.batch.max-delay=1ms")
        .run(context -> {
          ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
          SendResult result = template.send("orders", 1, "hello").get(30, TimeUnit.SECONDS);
          assertThat(context.getBean(ObjlogStreams.class).reader("orders").partition(1)
              .read(result.lsn(), 1, Freshness.LATEST).records().get(0).valueAsString()).isEqualTo("hello");
          MeterRegistry registry = context.getBean(MeterRegistry.class);
          assertThat(registry.find("objlog.writer.records").tag("stream", "orders").counter())
              .isNotNull()
              .satisfies(c -> assertThat(c.count()).isEqualTo(1.0));
        });
  }

  record Order(int orderId) {}

  @Test
  void objectsAreSentAsJsonWithTheApplicationsJsonMapper() {
    runner.withUserConfiguration(SnakeCaseJsonMapperConfiguration.class)
        .withPropertyValues("objlog.streams.orders.writer.batch.max-delay=1ms")
        .run(context -> {
          assertThat(context).hasSingleBean(RecordValueConverter.class);
          SendResult result = context.getBean(ObjlogTemplate.class).send("orders", 0, new Order(9)).get(30, TimeUnit.SECONDS);
          assertThat(context.getBean(Objlog.class).reader().partition(0).fetch(result.lsn()).orElseThrow().valueAsString())
              .isEqualTo("{\"order_id\":9}");
        });
  }

  @Test
  void withoutJacksonOnlyTextAndBytesAreConverted() {
    runner.withClassLoader(new FilteredClassLoader(JsonMapper.class))
        .withPropertyValues("objlog.streams.orders.partitions=1")
        .run(context -> {
          assertThat(context).hasNotFailed().doesNotHaveBean(RecordValueConverter.class);
          org.assertj.core.api.Assertions.assertThatThrownBy(
                  () -> context.getBean(ObjlogTemplate.class).send("orders", 0, new Order(1)))
              .hasMessageContaining("without Jackson");
        });
  }

  @Test
  void closingTheContextFlushesAndClosesTheWriters() {
    AtomicReference<ObjlogStreams> streams = new AtomicReference<>();
    AtomicReference<ObjectStore> store = new AtomicReference<>();
    runner.withPropertyValues("objlog.streams.orders.partitions=1", "objlog.streams.orders.writer.batch.max-delay=1h")
        .run(context -> {
          streams.set(context.getBean(ObjlogStreams.class));
          store.set(context.getBean(ObjectStore.class));
          context.getBean(ObjlogTemplate.class).send("orders", 0, "pending at shutdown");
        });
    try (Objlog log = Objlog.open(store.get(), "orders")) {
      assertThat(log.reader().partition(0).read(0, 10, Freshness.LATEST).records())
          .extracting(r -> r.valueAsString())
          .containsExactly("pending at shutdown");
    }
  }

  @Test
  void applicationBeansReplaceObjlogs() {
    runner.withUserConfiguration(OwnTemplateConfiguration.class)
        .withPropertyValues("objlog.streams.orders.partitions=1")
        .run(context -> assertThat(context.getBean(ObjlogTemplate.class)).isSameAs(OwnTemplateConfiguration.TEMPLATE.get()));
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = ';',
      value = {
        "objlog.streams.orders.writer.partitions; 0-4; objlog.streams.orders.writer.partitions; partition 4 in \"0-4\" does not exist: the stream has 4 partitions (0-3)",
        "objlog.streams.orders.writer.partitions; 2-1; objlog.streams.orders.writer.partitions; runs backwards",
        "objlog.streams.orders.writer.partitions; all; objlog.streams.orders.writer.partitions; is not \"*\" or a list",
        "objlog.streams.orders.writer.batch.max-records; 0; objlog.streams.orders.writer.batch; maxRecords must be positive",
        "objlog.streams.orders.writer.batch.max-delay; -1ms; objlog.streams.orders.writer.batch; must not be negative",
        "objlog.streams.orders.writer.backpressure.max-pending-segments; 0; objlog.streams.orders.writer.backpressure; maxPendingSegments",
        "objlog.streams.orders.writer.adaptive-delay.min; 1s; objlog.streams.orders.writer.adaptive-delay; min <= max",
        "objlog.streams.orders.writer.timeouts.catalog-publish; 0s; objlog.streams.orders.writer.timeouts; must be positive",
        "objlog.reader.poll-interval; 0s; objlog.reader; pollInterval must be positive",
        "objlog.reader.read-ahead-blocks; 2000; objlog.reader; readAheadBlocks must be 0..1024",
        "objlog.health.store-unreachable-threshold; 0s; objlog.health.store-unreachable-threshold; not positive",
      })
  void badConfigurationFailsStartupNamingTheProperty(String property, String value, String named, String says) {
    runner.withPropertyValues("objlog.streams.orders.partitions=4", property + "=" + value).run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).hasRootCauseInstanceOf(ObjlogConfigurationException.class);
      FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
      assertThat(analysis.getDescription()).startsWith("Invalid objlog configuration: " + named).contains(says);
      assertThat(analysis.getAction()).contains(named.startsWith("objlog.reader") ? "objlog.reader" : named);
    });
  }

  @Configuration(proxyBeanMethods = false)
  static class MeterRegistryConfiguration {
    @Bean
    MeterRegistry meterRegistry() {
      return new SimpleMeterRegistry();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class SnakeCaseJsonMapperConfiguration {
    @Bean
    JsonMapper jsonMapper() {
      return JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnTemplateConfiguration {
    static final AtomicReference<ObjlogTemplate> TEMPLATE = new AtomicReference<>();

    @Bean
    ObjlogTemplate myTemplate(ObjlogStreams streams) {
      ObjlogTemplate template = new ObjlogTemplate(streams);
      TEMPLATE.set(template);
      return template;
    }
  }

}
