package dev.objlog.spring.coordination;

import dev.objlog.coordination.LeaseStore;

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
}
