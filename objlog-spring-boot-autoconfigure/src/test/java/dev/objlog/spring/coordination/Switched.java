package dev.objlog.spring.coordination;

import dev.objlog.coordination.Lease;
import dev.objlog.coordination.LeaseId;
import dev.objlog.coordination.LeaseResult;
import dev.objlog.coordination.LeaseStore;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/** Sends each request to the store {@code current} names now (faulty, then fault-free). */
record Switched(Supplier<LeaseStore> current) implements LeaseStore {
  @Override
  public LeaseResult tryAcquire(LeaseId id, String owner, Duration ttl) {
    return current.get().tryAcquire(id, owner, ttl);
  }

  @Override
  public LeaseResult renew(LeaseId id, Lease held, Duration ttl) {
    return current.get().renew(id, held, ttl);
  }

  @Override
  public boolean release(LeaseId id, Lease held) {
    return current.get().release(id, held);
  }

  @Override
  public Optional<Lease> current(LeaseId id) {
    return current.get().current(id);
  }
}
