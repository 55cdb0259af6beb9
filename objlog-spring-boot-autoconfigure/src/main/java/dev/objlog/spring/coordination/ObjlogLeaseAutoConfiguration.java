package dev.objlog.spring.coordination;

import dev.objlog.coordination.LeaseStore;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;

/**
 * The {@link LeaseStore} that listener groups and the template's writer leases share, unless the
 * application defines its own: the lease store of the {@link LeaseStoreProvider} bean, which is
 * the checkpoint repository ({@code objlog.checkpoint.store}): a {@link JdbcLeaseStore} on the
 * same table prefix and DataSource, an {@link InMemoryLeaseStore}, or a {@link
 * dev.objlog.coordination.BucketLeaseStore} in the log's bucket. An application's own (deprecated)
 * {@code LeaseRepository} bean is a provider too: its leases are adapted.
 */
@AutoConfiguration(afterName = "dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration")
public final class ObjlogLeaseAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnSingleCandidate(LeaseStoreProvider.class)
  LeaseStore objlogLeaseStore(LeaseStoreProvider provider) {
    return provider.leaseStore();
  }
}
