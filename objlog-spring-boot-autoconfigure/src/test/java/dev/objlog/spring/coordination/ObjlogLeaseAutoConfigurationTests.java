package dev.objlog.spring.coordination;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.coordination.LeaseId;
import dev.objlog.coordination.LeaseStore;
import dev.objlog.coordination.PreviousReleaseLeases;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The {@code LeaseStore} bean, and {@code objlog.checkpoint.hold-previous-release-leases}. */
class ObjlogLeaseAutoConfigurationTests {
  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
          ObjlogCheckpointAutoConfiguration.class, ObjlogLeaseAutoConfiguration.class))
      .withPropertyValues("objlog.store.type=memory");

  @Test
  void byDefaultTheLeaseStoreIsTheCheckpointRepositorysOwn() {
    runner.run(context -> assertThat(context.getBean(LeaseStore.class))
        .isSameAs(context.getBean(LeaseStoreProvider.class).leaseStore()));
  }

  @Test
  void holdingThePreviousReleasesLeasesWrapsTheRepositorysStoreInItsLayout() {
    runner.withPropertyValues("objlog.checkpoint.hold-previous-release-leases=true").run(context -> {
      LeaseStore leases = context.getBean(LeaseStore.class);
      assertThat(leases).isInstanceOf(PreviousReleaseLeases.class);
      LeaseStore own = context.getBean(LeaseStoreProvider.class).leaseStore();
      LeaseId writer = LeaseId.ofWriters(LeaseId.Role.PARTITION, "orders", 0);
      leases.tryAcquire(writer, "a", Duration.ofSeconds(10));
      // rows (memory): the previous release's writer row is held too
      assertThat(own.current(LeaseId.ofGroup("objlog-writer", LeaseId.Role.PARTITION, "orders", 0))).isPresent();
    });
  }
}
