package dev.objlog.spring.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.MemoryBudget;
import dev.objlog.spring.actuate.MemoryView;
import dev.objlog.spring.actuate.ObjlogEndpoint;
import dev.objlog.spring.actuate.ObjlogHealthIndicator;
import dev.objlog.spring.actuate.StoreProbe;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class ObjlogActuatorAutoConfigurationTests {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
              ObjlogStreamsAutoConfiguration.class, ObjlogEndpointAutoConfiguration.class,
              ObjlogHealthAutoConfiguration.class))
          .withPropertyValues("objlog.store.type=memory", "objlog.streams.orders.partitions=2");

  @Test
  void theEndpointExistsOnlyWhenExposed() {
    runner.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ObjlogEndpoint.class));
    runner.withPropertyValues("management.endpoints.web.exposure.include=objlog")
        .run(context -> assertThat(context).hasSingleBean(ObjlogEndpoint.class));
    runner.withPropertyValues("management.endpoints.web.exposure.include=objlog", "management.endpoint.objlog.access=NONE")
        .run(context -> assertThat(context).doesNotHaveBean(ObjlogEndpoint.class));
  }

  @Test
  void theEndpointShowsTheContextsMemoryBudget() {
    runner.withPropertyValues("management.endpoints.web.exposure.include=objlog", "objlog.memory.budget=48MB")
        .run(context -> {
          MemoryView memory = (MemoryView) context.getBean(ObjlogEndpoint.class).streams().get("memory");
          assertThat(memory.capacityBytes()).as("the overview's memory section")
              .isEqualTo(48L << 20).isEqualTo(context.getBean(MemoryBudget.class).capacityBytes());
        });
  }

  @Test
  void healthAndProbeByDefaultAndOffWhenDisabled() {
    runner.run(context -> {
      assertThat(context).hasSingleBean(ObjlogHealthIndicator.class).hasSingleBean(StoreProbe.class);
      assertThat(context.getBean("objlogHealthIndicator")).isInstanceOf(HealthIndicator.class);
      assertThat(context.getBean(StoreProbe.class).isRunning()).isTrue();
    });
    runner.withPropertyValues("objlog.health.probe-interval=0")
        .run(context -> assertThat(context.getBean(StoreProbe.class).isRunning()).isFalse());
    runner.withPropertyValues("management.health.objlog.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean(ObjlogHealthIndicator.class).doesNotHaveBean(StoreProbe.class));
  }

  @Test
  void nothingWithoutTheActuator() {
    runner.withClassLoader(new FilteredClassLoader(HealthIndicator.class,
            org.springframework.boot.actuate.endpoint.annotation.Endpoint.class))
        .withPropertyValues("management.endpoints.web.exposure.include=objlog")
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ObjlogEndpoint.class)
            .doesNotHaveBean(ObjlogHealthIndicator.class));
  }
}
