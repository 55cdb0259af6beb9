package dev.objlog.spring.autoconfigure.streams;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.MemoryBudget;
import dev.objlog.spring.autoconfigure.FailureAnalyses;
import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.core.ObjlogStreams;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** objlog.memory.budget: one MemoryBudget bean per context, shared by every stream's log. */
class MemoryBudgetAutoConfigurationTests {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
              ObjlogStreamsAutoConfiguration.class))
          .withPropertyValues("objlog.store.type=memory", "objlog.streams.orders.partitions=2",
              "objlog.streams.audit.partitions=1");

  @Test
  void oneBudgetPerContextIsSharedByEveryStream() {
    runner.run(context -> {
      assertThat(context).hasNotFailed().hasSingleBean(MemoryBudget.class);
      MemoryBudget budget = context.getBean(MemoryBudget.class);
      assertThat(budget).isNotSameAs(MemoryBudget.processDefault());
      assertThat(budget.capacityBytes()).isEqualTo(MemoryBudget.defaultBytes(Runtime.getRuntime().maxMemory()));
      ObjlogStreams streams = context.getBean(ObjlogStreams.class);
      assertThat(streams.options().memoryBudget()).isSameAs(budget);
      assertThat(streams.log("orders").options().memoryBudget()).isSameAs(budget);
      assertThat(streams.log("audit").options().memoryBudget()).isSameAs(budget);
    });
    runner.run(first -> runner.run(second ->
        assertThat(first.getBean(MemoryBudget.class)).isNotSameAs(second.getBean(MemoryBudget.class))));
  }

  @Test
  void aSizeOrAPercentageOfTheHeapSetsTheBudget() {
    runner.withPropertyValues("objlog.memory.budget=256MB").run(context ->
        assertThat(context.getBean(MemoryBudget.class).capacityBytes()).isEqualTo(256L << 20));
    runner.withPropertyValues("objlog.memory.budget= 10% ").run(context ->
        assertThat(context.getBean(MemoryBudget.class).capacityBytes())
            .isEqualTo((long) (Runtime.getRuntime().maxMemory() * 0.10)));
  }

  @Test
  void anApplicationsOwnBudgetBeanReplacesTheProperty() {
    MemoryBudget own = MemoryBudget.ofBytes(64L << 20);
    runner.withBean(MemoryBudget.class, () -> own).run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(ObjlogStreams.class).options().memoryBudget()).isSameAs(own);
    });
  }

  @Test
  void theBudgetIsMeteredInTheApplicationsRegistry() {
    runner.withPropertyValues("objlog.memory.budget=64MB")
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .run(context -> {
          context.getBean(ObjlogStreams.class).log("orders");
          MeterRegistry registry = context.getBean(MeterRegistry.class);
          assertThat(registry.get("objlog.memory.budget").gauge().value()).isEqualTo(64.0 * (1 << 20));
          assertThat(registry.get("objlog.memory.used").gauge().value()).isZero();
          assertThat(registry.get("objlog.memory.writer.wait").functionCounter().count()).isZero();
        });
  }

  @ParameterizedTest
  @ValueSource(strings = {"lots", "0MB", "-5MB", "0%", "150%", "abc%"})
  void anInvalidBudgetFailsStartupNamingTheProperty(String value) {
    runner.withPropertyValues("objlog.memory.budget=" + value).run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).hasRootCauseInstanceOf(ObjlogConfigurationException.class);
      FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
      assertThat(analysis.getDescription()).contains("objlog.memory.budget").contains(value.trim());
      assertThat(analysis.getAction()).contains("256MB").contains("25%");
    });
  }
}
