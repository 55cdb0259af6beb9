package dev.objlog.spring.coordination;

import dev.objlog.coordination.Lease;
import dev.objlog.coordination.LeaseId;
import dev.objlog.coordination.LeaseResult;
import dev.objlog.coordination.LeaseState;
import dev.objlog.coordination.LeaseStore;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Leases in this process's memory: for tests, and for single-instance applications. Nothing is
 * shared with other instances. Keyed like the JDBC rows ({@link LeaseId#rowGroup()}, {@link
 * LeaseId#rowPartition()}).
 *
 * <p>Thread-safety: safe for concurrent use; every operation is atomic.
 */
public final class InMemoryLeaseStore implements LeaseStore {
  private record Key(String group, String streamName, long partition) {}

  private final Clock clock;
  private final Map<Key, LeaseState> leases = new HashMap<>();

  /** A store whose expiries come from {@code clock}. */
  public InMemoryLeaseStore(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  private static Key key(LeaseId id) {
    Objects.requireNonNull(id, "id");
    return new Key(id.rowGroup(), id.streamName(), id.rowPartition());
  }

  @Override
  public synchronized LeaseResult tryAcquire(LeaseId id, String owner, Duration ttl) {
    Key key = key(id);
    LeaseState.checkName("owner", owner);
    long ttlMs = LeaseState.ttlMillis(ttl);
    long now = clock.millis();
    LeaseState current = leases.get(key);
    return apply(key, current, LeaseState.acquire(current, owner, now, ttlMs), now);
  }

  @Override
  public synchronized LeaseResult renew(LeaseId id, Lease held, Duration ttl) {
    Key key = key(id);
    Objects.requireNonNull(held, "held");
    long ttlMs = LeaseState.ttlMillis(ttl);
    long now = clock.millis();
    LeaseState current = leases.get(key);
    return apply(key, current, LeaseState.renew(current, held, now, ttlMs), now);
  }

  @Override
  public synchronized boolean release(LeaseId id, Lease held) {
    Key key = key(id);
    Objects.requireNonNull(held, "held");
    LeaseState next = LeaseState.release(leases.get(key), held);
    if (next == null) {
      return false;
    }
    leases.put(key, next);
    return true;
  }

  @Override
  public synchronized Optional<Lease> current(LeaseId id) {
    LeaseState current = leases.get(key(id));
    return current == null ? Optional.empty() : Optional.ofNullable(current.validLeaseAt(clock.millis()));
  }

  private LeaseResult apply(Key key, @Nullable LeaseState current, @Nullable LeaseState next, long now) {
    if (next == null) {
      return new LeaseResult.Refused(current == null ? null : current.validLeaseAt(now));
    }
    leases.put(key, next);
    return new LeaseResult.Granted(next.toLease());
  }

  @Override
  public String toString() {
    return "InMemoryLeaseStore";
  }
}
