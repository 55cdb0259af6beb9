package dev.objlog.spring.coordination;

import dev.objlog.coordination.LeaseStore;
import dev.objlog.coordination.PreviousReleaseLeases;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The {@link LeaseStore} that listener groups and the template's writer leases share, unless the
 * application defines its own: the lease store of the {@link LeaseStoreProvider} bean, which is
 * the checkpoint repository ({@code objlog.checkpoint.store}): a {@link JdbcLeaseStore} on the
 * same table prefix and DataSource, an {@link InMemoryLeaseStore}, or a {@link
 * dev.objlog.coordination.BucketLeaseStore} in the log's bucket. With {@code
 * objlog.checkpoint.hold-previous-release-leases} it is wrapped in {@link PreviousReleaseLeases}
 * (rolling deploys from the previous release).
 */
@AutoConfiguration(afterName = "dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration")
public final class ObjlogLeaseAutoConfiguration {
  private static final String HOLD_PREVIOUS_RELEASE_LEASES = "objlog.checkpoint.hold-previous-release-leases";

  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnSingleCandidate(LeaseStoreProvider.class)
  LeaseStore objlogLeaseStore(LeaseStoreProvider provider, Environment environment) {
    LeaseStore leases = provider.leaseStore();
    // Bound and documented by ObjlogCheckpointProperties; read here by name, so that this package
    // does not depend on the checkpoint package (which depends on it).
    boolean holdPrevious = environment.getProperty(HOLD_PREVIOUS_RELEASE_LEASES, Boolean.class, false);
    return holdPrevious ? new PreviousReleaseLeases(leases, provider.leaseLayout()) : leases;
  }
}
