package dev.objlog.spring.listener.checkpoint;

import dev.objlog.read.CursorCheckpoint;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Checkpoints and leases in this process's memory: for tests, and for applications that replay
 * from their start position after every restart. Nothing is shared with other instances.
 *
 * <p>Versions count saves of one key: "1", "2", ...
 *
 * <p>Thread-safety: safe for concurrent use; every operation is atomic.
 */
public final class InMemoryCheckpointRepository implements CheckpointRepository, LeaseRepository {
  private final Clock clock;
  private final Map<CheckpointKey, StoredCheckpoint> checkpoints = new HashMap<>();
  private final Map<LeaseKey, LeaseState> leases = new HashMap<>();

  /** A repository with the system clock. */
  public InMemoryCheckpointRepository() {
    this(Clock.systemUTC());
  }

  /** A repository whose save times and lease expiries come from {@code clock}. */
  public InMemoryCheckpointRepository(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public synchronized Optional<StoredCheckpoint> load(CheckpointKey key) {
    Objects.requireNonNull(key, "key");
    return Optional.ofNullable(checkpoints.get(key));
  }

  @Override
  public synchronized CheckpointVersion save(
      CheckpointKey key, CursorCheckpoint checkpoint, CheckpointVersion expectedVersion) {
    Checks.checkSave(key, checkpoint, expectedVersion);
    long expected = Checks.counterVersion(expectedVersion);
    StoredCheckpoint current = checkpoints.get(key);
    long stored = current == null ? 0 : Long.parseLong(current.version().value());
    if (stored != expected) {
      throw new CheckpointConflictException(key, expectedVersion, current);
    }
    CheckpointVersion next = CheckpointVersion.of(Long.toString(stored + 1));
    Instant now = Instant.ofEpochMilli(clock.millis());
    checkpoints.put(key, new StoredCheckpoint(key, checkpoint, next, now));
    return next;
  }

  @Override
  public synchronized LeaseResult tryAcquire(LeaseKey key, String owner, Duration ttl) {
    Objects.requireNonNull(key, "key");
    Names.checkOwnerId("owner", owner);
    long ttlMs = LeaseState.ttlMillis(ttl);
    long now = clock.millis();
    LeaseState current = leases.get(key);
    LeaseState next = LeaseState.acquire(current, owner, now, ttlMs);
    return apply(key, current, next, now);
  }

  @Override
  public synchronized LeaseResult renew(LeaseKey key, Lease held, Duration ttl) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(held, "held");
    long ttlMs = LeaseState.ttlMillis(ttl);
    long now = clock.millis();
    LeaseState current = leases.get(key);
    return apply(key, current, LeaseState.renew(current, held, now, ttlMs), now);
  }

  @Override
  public synchronized boolean release(LeaseKey key, Lease held) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(held, "held");
    LeaseState next = LeaseState.release(leases.get(key), held);
    if (next == null) {
      return false;
    }
    leases.put(key, next);
    return true;
  }

  @Override
  public synchronized Optional<Lease> current(LeaseKey key) {
    Objects.requireNonNull(key, "key");
    LeaseState current = leases.get(key);
    return current == null ? Optional.empty() : Optional.ofNullable(current.validLeaseAt(clock.millis()));
  }

  private LeaseResult apply(LeaseKey key, @Nullable LeaseState current, @Nullable LeaseState next, long now) {
    if (next == null) {
      return new LeaseResult.Refused(current == null ? null : current.validLeaseAt(now));
    }
    leases.put(key, next);
    return new LeaseResult.Granted(next.toLease());
  }
}
