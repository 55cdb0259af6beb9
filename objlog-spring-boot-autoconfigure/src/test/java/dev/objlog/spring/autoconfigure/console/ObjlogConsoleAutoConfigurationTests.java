package dev.objlog.spring.autoconfigure.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.actuate.CachedPartitionHeads;
import dev.objlog.spring.actuate.ObjlogEndpoint;
import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import dev.objlog.spring.autoconfigure.actuate.ObjlogEndpointAutoConfiguration;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.AbstractApplicationContextRunner;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.web.servlet.DispatcherServlet;

/** When the console's cache exists, and that the endpoint serves it. */
class ObjlogConsoleAutoConfigurationTests {
  private static final AutoConfigurations CONFIGURATIONS = AutoConfigurations.of(EndpointAutoConfiguration.class,
      ObjlogStoreAutoConfiguration.class, ObjlogStreamsAutoConfiguration.class, ObjlogEndpointAutoConfiguration.class,
      ObjlogConsoleAutoConfiguration.class);
  private static final String[] PROPERTIES = {"objlog.store.type=memory", "objlog.streams.orders.partitions=2",
    "management.endpoints.web.exposure.include=objlog"};

  private static <R extends AbstractApplicationContextRunner<R, ?, ?>> R configure(R runner) {
    return runner.withConfiguration(CONFIGURATIONS).withPropertyValues(PROPERTIES);
  }

  private final WebApplicationContextRunner servlet = configure(new WebApplicationContextRunner());

  @Test
  void onInAServletApplicationWhenTheEndpointIsExposedOverHttp() {
    servlet.run(context -> {
      assertThat(context).hasSingleBean(CachedPartitionHeads.class);
      assertThat(context.getBean(CachedPartitionHeads.class).refresh()).isEqualTo(Duration.ofSeconds(5));
      assertThat(context.getBean(ObjlogEndpoint.class).streams("cached")).containsEntry("headsRefresh", "PT5S")
          .containsEntry("writeOperations", false);
    });
    servlet.withPropertyValues("objlog.console.refresh=250ms", "management.endpoint.objlog.access=UNRESTRICTED")
        .run(context -> {
          assertThat(context.getBean(CachedPartitionHeads.class).refresh()).isEqualTo(Duration.ofMillis(250));
          assertThat(context.getBean(ObjlogEndpoint.class).streams("cached")).containsEntry("writeOperations", true);
        });
  }

  @Test
  void offWhenTurnedOffNotExposedOverHttpOrWithoutSpringMvc() {
    servlet.withPropertyValues("objlog.console.enabled=false")
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(CachedPartitionHeads.class)
            .hasSingleBean(ObjlogEndpoint.class));
    servlet.withPropertyValues("management.endpoints.web.exposure.include=health",
        "management.endpoints.jmx.exposure.include=objlog")
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(CachedPartitionHeads.class));
    servlet.withClassLoader(new FilteredClassLoader(DispatcherServlet.class))
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(CachedPartitionHeads.class));
  }

  @Test
  void noneInNonWebOrReactiveApplications() {
    configure(new ApplicationContextRunner())
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(CachedPartitionHeads.class)
            .hasSingleBean(ObjlogEndpoint.class));
    configure(new ReactiveWebApplicationContextRunner())
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(CachedPartitionHeads.class));
  }

  @Test
  void aRefreshThatIsNotPositiveFailsStartupSayingWhatToSet() {
    servlet.withPropertyValues("objlog.console.refresh=0s").run(context -> assertThat(context).hasFailed()
        .getFailure().rootCause().isInstanceOf(ObjlogConfigurationException.class)
        .hasMessageContaining("objlog.console.refresh").hasMessageContaining("positive duration"));
  }
}
