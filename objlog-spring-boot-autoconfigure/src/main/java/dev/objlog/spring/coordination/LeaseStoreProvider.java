package dev.objlog.spring.coordination;

import dev.objlog.coordination.LeaseStore;
import dev.objlog.coordination.PreviousReleaseLeases;

/**
 * A bean that keeps leases besides its own data: every checkpoint repository of this module
 * (leases in the same database, bucket or memory). {@link ObjlogLeaseAutoConfiguration} makes its
 * {@link #leaseStore()} the {@link LeaseStore} bean when the application defines none.
 *
 * <p>Thread-safety: implementations are safe for concurrent use.
 */
public interface LeaseStoreProvider {

  /** The leases kept beside this bean's data. */
  LeaseStore leaseStore();

  /**
   * How {@link #leaseStore()} lays its leases out, which tells {@link PreviousReleaseLeases} where
   * the previous release kept them: rows ({@link JdbcLeaseStore}, {@link InMemoryLeaseStore})
   * unless overridden.
   */
  default PreviousReleaseLeases.Layout leaseLayout() {
    return PreviousReleaseLeases.Layout.ROWS;
  }
}
