package dev.objlog.spring.autoconfigure.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.objlog.MemoryBudget;
import dev.objlog.RecordExceedsPendingBudgetException;
import dev.objlog.WriterOptions;
import dev.objlog.spring.autoconfigure.FailureAnalyses;
import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import dev.objlog.spring.autoconfigure.ObjlogProperties;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.core.ObjlogTemplate;
import java.util.concurrent.CompletionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.util.unit.DataSize;

/**
 * Reservation starvation is refused at startup: the writers of the configured streams must fit
 * the memory budget, one reservation each ({@link MemoryBudget#reservationBytes}), and
 * {@code writer.backpressure.max-record-size} lowers what each reserves.
 */
class WriterReservationsCheckTests {
  private static final long MIB = 1L << 20;
  /** What a writer with the default options reserves: about 5.3 MiB. */
  private static final long DEFAULT_RESERVATION = MemoryBudget.reservationBytes(WriterOptions.defaults());
  private static final Pattern AT_MOST =
      Pattern.compile("objlog\\.streams\\.orders\\.writer\\.backpressure\\.max-record-size to at most (\\d+KB)");

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
              ObjlogStreamsAutoConfiguration.class))
          .withPropertyValues("objlog.store.type=memory");

  @Test
  void aBudgetTooSmallForTheConfiguredPartitionWritersFailsStartupWithTheBudgetTheNeedAndARecordSizeThatFits() {
    runner.withPropertyValues("objlog.memory.budget=64MB", "objlog.streams.orders.partitions=32").run(context -> {
      assertThat(context).hasFailed();
      // Thrown by the startup step itself, not wrapped in a bean creation failure.
      assertThat(context.getStartupFailure()).isInstanceOf(ObjlogConfigurationException.class);
      FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
      long needed = 32 * DEFAULT_RESERVATION;
      assertThat(analysis.getDescription())
          .startsWith("Invalid objlog configuration: objlog.memory.budget: objlog.memory.budget is 64MB ("
              + (64 * MIB) + " bytes)")
          .contains("reserve " + needed + " bytes")
          .contains("orders: 32 writers × " + DEFAULT_RESERVATION + " bytes, with records of up to 4456464 bytes and 1048576-byte blocks")
          .contains("would refuse every record larger than what is left");
      assertThat(analysis.getAction())
          .startsWith("Set objlog.memory.budget to at least " + ((needed + MIB - 1) / MIB) + "MB (" + needed + " bytes)")
          .contains("objlog.streams.<name>.writer.partitions");
      Matcher fits = AT_MOST.matcher(analysis.getAction());
      assertThat(fits.find()).as(analysis.getAction()).isTrue();
      long suggested = DataSize.parse(fits.group(1)).toBytes();
      assertThat(32 * MemoryBudget.reservationBytes(withMaxRecord((int) suggested))).isLessThanOrEqualTo(64 * MIB);
      assertThat(32 * MemoryBudget.reservationBytes(withMaxRecord((int) suggested + 1024)))
          .as("the largest whole kilobytes that fit").isGreaterThan(64 * MIB);
    });
  }

  @Test
  void loweringMaxRecordSizeToTheFigureTheFailureNamesLetsTheSameBudgetStart() {
    String[] tooSmall = {"objlog.memory.budget=64MB", "objlog.streams.orders.partitions=32"};
    String[] suggested = new String[1];
    runner.withPropertyValues(tooSmall).run(context -> {
      Matcher fits = AT_MOST.matcher(FailureAnalyses.analyze(context.getStartupFailure()).getAction());
      assertThat(fits.find()).isTrue();
      suggested[0] = fits.group(1);
    });
    runner.withPropertyValues(tooSmall)
        .withPropertyValues("objlog.streams.orders.writer.backpressure.max-record-size=" + suggested[0])
        .run(context -> {
          assertThat(context).hasNotFailed();
          MemoryBudget budget = context.getBean(MemoryBudget.class);
          ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
          for (int partition = 0; partition < 32; partition++) {
            template.send("orders", partition, "fits").join();
          }
          assertThat(budget.reservedBytes()).as("every writer got its whole reservation")
              .isEqualTo(32 * MemoryBudget.reservationBytes(withMaxRecord((int) DataSize.parse(suggested[0]).toBytes())))
              .isLessThanOrEqualTo(budget.capacityBytes());
        });
  }

  @Test
  void whenNoRecordSizeCanFitOnlyTheBudgetAndThePartitionsAreNamed() {
    // 64 writers on 64MB: an even share (1MB) is less than one 1MB block plus its framing.
    runner.withPropertyValues("objlog.memory.budget=64MB", "objlog.streams.orders.partitions=64").run(context -> {
      FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
      assertThat(analysis.getDescription()).contains("orders: 64 writers × " + DEFAULT_RESERVATION + " bytes");
      long needed = 64 * DEFAULT_RESERVATION;
      assertThat(analysis.getAction()).contains("objlog.memory.budget to at least " + (needed + MIB - 1) / MIB + "MB")
          .doesNotContain("max-record-size to at most").contains("writer.partitions");
    });
  }

  @Test
  void everyConfiguredStreamCountsOnlyThePartitionsThisInstanceWrites() {
    runner.withPropertyValues("objlog.memory.budget=32MB", "objlog.streams.orders.partitions=64",
        "objlog.streams.orders.writer.partitions=0-3", "objlog.streams.audit.partitions=1")
        .run(context -> assertThat(context).hasNotFailed());
    runner.withPropertyValues("objlog.memory.budget=32MB", "objlog.streams.orders.partitions=64",
        "objlog.streams.orders.writer.partitions=0-3", "objlog.streams.audit.partitions=4")
        .run(context -> {
          assertThat(context).hasFailed();
          FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
          assertThat(analysis.getDescription())
              .contains("reserve " + 8 * DEFAULT_RESERVATION + " bytes")
              .contains("orders: 4 writers × ").contains("audit: 4 writers × ");
          assertThat(analysis.getAction()).contains("objlog.streams.orders.writer.backpressure.max-record-size to at most")
              .contains("objlog.streams.audit.writer.backpressure.max-record-size to at most");
        });
  }

  @Test
  void anApplicationsOwnBudgetBeanIsCheckedTheSameWay() {
    MemoryBudget own = MemoryBudget.ofBytes(16 * MIB);
    runner.withBean("ownBudget", MemoryBudget.class, () -> own)
        .withPropertyValues("objlog.memory.budget=1GB", "objlog.streams.orders.partitions=8")
        .run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure()).isInstanceOf(ObjlogConfigurationException.class);
          FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
          assertThat(analysis.getDescription())
              .startsWith("Invalid objlog configuration: objlog.streams.orders.writer.backpressure.max-record-size:"
                  + " the application's MemoryBudget bean 'ownBudget' has " + (16 * MIB) + " bytes")
              .contains("reserve " + 8 * DEFAULT_RESERVATION + " bytes")
              .doesNotContain("objlog.memory.budget is");
          assertThat(analysis.getAction())
              .startsWith("Give the MemoryBudget bean 'ownBudget' at least " + 8 * DEFAULT_RESERVATION + " bytes")
              .contains("max-record-size to at most");
        });
    runner.withBean("ownBudget", MemoryBudget.class, () -> MemoryBudget.ofBytes(8 * DEFAULT_RESERVATION))
        .withPropertyValues("objlog.streams.orders.partitions=8")
        .run(context -> assertThat(context).hasNotFailed());
  }

  @Test
  void anUnsetBudgetIsNamedWithTheSizeItCameTo() {
    ObjlogProperties properties = new ObjlogProperties();
    ObjlogProperties.Stream orders = new ObjlogProperties.Stream();
    orders.setPartitions(8);
    properties.getStreams().put("orders", orders);
    assertThatThrownBy(() -> WriterReservationsCheck.check(properties, 32 * MIB, null))
        .isInstanceOf(ObjlogConfigurationException.class)
        .hasMessageContaining("objlog.memory.budget is unset, so 25% of the heap within 32MB to 2GB: "
            + (32 * MIB) + " bytes here");
    WriterReservationsCheck.check(properties, 8 * DEFAULT_RESERVATION, null);
  }

  @Test
  void maxRecordSizeIsBoundPerStreamAndForAutoCreatedStreamsAndReachesTheWriter() {
    runner.withPropertyValues("objlog.streams.orders.partitions=1",
        "objlog.streams.orders.writer.backpressure.max-record-size=1KB",
        "objlog.defaults.writer.backpressure.max-record-size=64KB").run(context -> {
          assertThat(context).hasNotFailed();
          ObjlogProperties properties = context.getBean(ObjlogProperties.class);
          assertThat(properties.getStreams().get("orders").getWriter().toWriterOptions().backpressure().maxRecordBytes())
              .isEqualTo(1024);
          assertThat(properties.getDefaults().getWriter().toWriterOptions().backpressure().maxRecordBytes())
              .isEqualTo(64 << 10);
          ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
          template.send("orders", 0, new byte[1024 - 16]).join();
          Throwable refused = catchThrowable(() -> template.send("orders", 0, new byte[1024 - 15]).join());
          assertThat(refused instanceof CompletionException ? refused.getCause() : refused)
              .isInstanceOf(RecordExceedsPendingBudgetException.class).hasMessageContaining("maxRecordBytes of 1024");
        });
    runner.withPropertyValues("objlog.streams.orders.partitions=1").run(context ->
        assertThat(context.getBean(ObjlogProperties.class).getStreams().get("orders").getWriter().toWriterOptions()
            .backpressure().maxRecordBytes())
            .as("unset: the format's largest").isEqualTo(WriterOptions.BackpressurePolicy.FORMAT_MAX_RECORD_BYTES));
  }

  @ParameterizedTest
  @ValueSource(strings = {"objlog.streams.orders.writer", "objlog.defaults.writer"})
  void aMaxRecordSizeOutsideTheFormatsRangeFailsStartupSayingTheRange(String writer) {
    for (String value : new String[] {"15B", "4456465B", "5MB", "-1B"}) {
      runner.withPropertyValues("objlog.streams.orders.partitions=1", writer + ".backpressure.max-record-size=" + value)
          .run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasRootCauseInstanceOf(ObjlogConfigurationException.class);
            FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription())
                .startsWith("Invalid objlog configuration: " + writer + ".backpressure.max-record-size:")
                .contains("outside 16B to 4456464B");
            assertThat(analysis.getAction()).contains(writer + ".backpressure.max-record-size to a size from 16B to 4456464B");
          });
    }
  }

  private static WriterOptions withMaxRecord(int maxRecordBytes) {
    return WriterOptions.builder()
        .backpressure(WriterOptions.BackpressurePolicy.DEFAULT.withMaxRecordBytes(maxRecordBytes)).build();
  }
}
