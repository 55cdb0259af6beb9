package dev.objlog.spring.listener.checkpoint;

import dev.objlog.read.CursorCheckpoint;
import dev.objlog.spring.coordination.InMemoryLeaseStore;
import dev.objlog.spring.coordination.LeaseStoreProvider;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Checkpoints and leases in this process's memory: for tests, and for applications that replay
 * from their start position after every restart. Nothing is shared with other instances.
 *
 * <p>Versions count saves of one key: "1", "2", ...
 *
 * <p>Thread-safety: safe for concurrent use; every operation is atomic.
 */
public final class InMemoryCheckpointRepository implements CheckpointRepository, LeaseStoreProvider {
  private final Clock clock;
  private final Map<CheckpointKey, StoredCheckpoint> checkpoints = new HashMap<>();
  private final InMemoryLeaseStore leases;

  /** A repository with the system clock. */
  public InMemoryCheckpointRepository() {
    this(Clock.systemUTC());
  }

  /** A repository whose save times and lease expiries come from {@code clock}. */
  public InMemoryCheckpointRepository(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.leases = new InMemoryLeaseStore(clock);
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

  /** The leases of this repository. */
  @Override
  public InMemoryLeaseStore leaseStore() {
    return leases;
  }
}
