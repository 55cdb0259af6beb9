package dev.objlog.spring.coordination;

import dev.objlog.coordination.Lease;
import dev.objlog.coordination.LeaseId;
import dev.objlog.coordination.LeaseResult;
import dev.objlog.coordination.LeaseStore;
import java.time.Duration;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.springframework.dao.QueryTimeoutException;

/**
 * A lease store whose requests fail by a seeded coin while {@code faultsOn} says so, as a database
 * connection does: a timeout before the statement ran, or a lost reply after it committed (the
 * caller cannot tell which).
 */
final class FaultyLeaseStore implements LeaseStore {
  private final LeaseStore delegate;
  private final SplittableRandom random;
  private final double probability;
  private final BooleanSupplier faultsOn;
  long injected;

  FaultyLeaseStore(LeaseStore delegate, long seed, double probability, BooleanSupplier faultsOn) {
    this.delegate = delegate;
    this.random = new SplittableRandom(seed);
    this.probability = probability;
    this.faultsOn = faultsOn;
  }

  private <T> T call(Supplier<T> request) {
    if (!faultsOn.getAsBoolean() || random.nextDouble() >= probability) {
      return request.get();
    }
    injected++;
    if (random.nextBoolean()) {
      throw new QueryTimeoutException("injected: timed out before the statement ran");
    }
    request.get();
    throw new QueryTimeoutException("injected: the statement ran, its reply was lost");
  }

  @Override
  public LeaseResult tryAcquire(LeaseId id, String owner, Duration ttl) {
    return call(() -> delegate.tryAcquire(id, owner, ttl));
  }

  @Override
  public LeaseResult renew(LeaseId id, Lease held, Duration ttl) {
    return call(() -> delegate.renew(id, held, ttl));
  }

  @Override
  public boolean release(LeaseId id, Lease held) {
    return call(() -> delegate.release(id, held));
  }

  @Override
  public Optional<Lease> current(LeaseId id) {
    return call(() -> delegate.current(id));
  }
}
