package dev.objlog.spring.coordination;

import dev.objlog.coordination.Lease;
import dev.objlog.coordination.LeaseId;
import dev.objlog.coordination.LeaseResult;
import dev.objlog.coordination.LeaseStore;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/** A broken store for the oracle's own test: every acquire and renewal is granted, nothing is held. */
record GrantingEverything(Clock clock) implements LeaseStore {
  @Override
  public LeaseResult tryAcquire(LeaseId id, String owner, Duration ttl) {
    return new LeaseResult.Granted(new Lease(owner, clock.instant().plus(ttl), 1));
  }

  @Override
  public LeaseResult renew(LeaseId id, Lease held, Duration ttl) {
    return new LeaseResult.Granted(new Lease(held.owner(), clock.instant().plus(ttl), held.epoch()));
  }

  @Override
  public boolean release(LeaseId id, Lease held) {
    return true;
  }

  @Override
  public Optional<Lease> current(LeaseId id) {
    return Optional.empty();
  }
}
