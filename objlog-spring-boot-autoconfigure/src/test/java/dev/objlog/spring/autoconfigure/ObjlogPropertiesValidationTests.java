package dev.objlog.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.util.unit.DataSize;

/** Configuration that cannot work fails startup with a message naming the property to change. */
class ObjlogPropertiesValidationTests {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class))
          .withPropertyValues("objlog.store.type=memory");

  @Test
  void defaultsAreTheDocumentedOnes() {
    ObjlogProperties properties = new ObjlogProperties();
    // Unset, not filesystem: the store configurations decide (filesystem only without a bucket).
    assertThat(properties.getStore().getType()).isNull();
    assertThat(properties.getStore().isVerifyBucket()).isTrue();
    assertThat(properties.getStore().getFilesystem().getRoot()).isEqualTo("./objlog-data");
    assertThat(properties.getStore().getPrefix()).isEqualTo("objlog");
    assertThat(properties.getStore().isVerifyConditionalWrites()).isTrue();
    assertThat(properties.getStore().getS3().getPartSize()).isEqualTo(DataSize.ofMegabytes(8));
    assertThat(properties.getStreams()).isEmpty();
  }

  @Test
  void streamsBindByNameAndTheStreamIdDefaultsToTheName() {
    runner
        .withPropertyValues(
            "objlog.streams.orders.stream-id=/orders/events/",
            "objlog.streams.orders.partitions=4",
            "objlog.streams.audit.partitions=2")
        .run(context -> {
          assertThat(context).hasNotFailed();
          ObjlogProperties properties = context.getBean(ObjlogProperties.class);
          assertThat(properties.getStreams()).containsOnlyKeys("orders", "audit");
          assertThat(properties.streamId("orders")).isEqualTo("orders/events");
          assertThat(properties.getStreams().get("orders").getPartitions()).isEqualTo(4);
          assertThat(properties.streamId("audit")).isEqualTo("audit");
        });
  }

  @Test
  void unknownStoreTypeNamesThePropertyAndTheValidTypes() {
    runner.withPropertyValues("objlog.store.type=dynamo").run(context -> {
      assertThat(context).hasFailed();
      FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
      assertThat(analysis.getDescription()).contains("objlog.store.type").contains("dynamo");
      assertThat(analysis.getAction()).contains("FILESYSTEM", "MEMORY", "S3", "GCS", "AZURE");
    });
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = ';',
      value = {
        "objlog.streams.orders.stream-id; a//b; objlog.streams.orders.stream-id; empty path segment",
        "objlog.streams.orders.stream-id; a/../b; objlog.streams.orders.stream-id; \"..\" path segment",
        "objlog.streams.orders.stream-id; ///; objlog.streams.orders.stream-id; empty",
        "objlog.streams.orders.partitions; 0; objlog.streams.orders.partitions; 0 partitions",
        "objlog.streams.orders.partitions; -3; objlog.streams.orders.partitions; -3 partitions",
        "objlog.streams.orders.partitions; 4097; objlog.streams.orders.partitions; 4097 partitions",
        "objlog.streams[orders/v1].partitions; 1; objlog.streams[orders/v1]; stream name 'orders/v1' is not allowed",
        "objlog.store.s3.part-size; 4MB; objlog.store.s3.part-size; 5MB",
        "objlog.store.gcs.upload-chunk-size; 300KB; objlog.store.gcs.upload-chunk-size; 256KB",
        "objlog.store.azure.block-size; 0B; objlog.store.azure.block-size; 1B",
      })
  void invalidValueFailsStartupNamingTheProperty(String property, String value, String named, String says) {
    runner.withPropertyValues(property + "=" + value).run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).hasRootCauseInstanceOf(ObjlogConfigurationException.class);
      FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
      assertThat(analysis.getDescription()).startsWith("Invalid objlog configuration: " + named).contains(says);
      assertThat(analysis.getAction()).contains(named.startsWith("objlog.streams[") ? "objlog.streams.<name>.stream-id" : named);
    });
  }

  @Test
  void anEmptyStreamIdFallsBackToTheName() {
    runner.withPropertyValues("objlog.streams.orders.partitions=2", "objlog.streams.orders.stream-id=").run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(ObjlogProperties.class).streamId("orders")).isEqualTo("orders");
    });
  }

  @Test
  void twoNamesForOneStreamIdAreRefused() {
    runner
        .withPropertyValues("objlog.streams.orders.stream-id=shop/orders", "objlog.streams.legacy.stream-id=/shop/orders")
        .run(context -> {
          assertThat(context).hasFailed();
          FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
          assertThat(analysis.getDescription())
              .contains("objlog.streams.legacy.stream-id")
              .contains("'orders' and 'legacy' both have the stream id \"shop/orders\"");
          assertThat(analysis.getAction()).contains("objlog.streams.orders").contains("objlog.streams.legacy");
        });
  }
}
