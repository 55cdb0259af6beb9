package dev.objlog.spring.listener.checkpoint;

import dev.objlog.ObjlogException;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A {@link CheckpointRepository#save save} found a different version than the one it expected:
 * another instance advanced (or created) the checkpoint since this one loaded it. Nothing was
 * written. Not retryable as such: the caller no longer owns the position, so it reloads (and in a
 * group, usually has lost its lease) before going on.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class CheckpointConflictException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  private final CheckpointKey key;
  private final CheckpointVersion expected;
  private final transient @Nullable StoredCheckpoint current;

  /**
   * @param key the checkpoint
   * @param expected the version the save expected
   * @param current what the repository held right after the failed save, when it knows without
   *     another read (it may be null even though a checkpoint exists)
   */
  public CheckpointConflictException(
      CheckpointKey key, CheckpointVersion expected, @Nullable StoredCheckpoint current) {
    super("checkpoint " + key + " was advanced by another instance: expected version " + expected
        + (current == null ? "" : ", found version " + current.version() + " at " + current.checkpointJson()));
    this.key = key;
    this.expected = expected;
    this.current = current;
  }

  public CheckpointKey getKey() {
    return key;
  }

  public CheckpointVersion getExpected() {
    return expected;
  }

  /** What the repository held right after the failed save, when it reported it. */
  public Optional<StoredCheckpoint> getCurrent() {
    return Optional.ofNullable(current);
  }
}
