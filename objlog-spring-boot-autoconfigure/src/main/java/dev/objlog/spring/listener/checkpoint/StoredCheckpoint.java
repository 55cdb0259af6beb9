package dev.objlog.spring.listener.checkpoint;

import dev.objlog.read.CursorCheckpoint;
import java.time.Instant;
import java.util.Objects;

/**
 * A checkpoint as a {@link CheckpointRepository} holds it: the cursor checkpoint (PROTOCOLS.md
 * §5.5), the version to pass to the next {@link CheckpointRepository#save save}, and when it was
 * last saved (by the saving instance's clock, to the millisecond).
 *
 * <p>Thread-safety: immutable.
 *
 * @param key which checkpoint
 * @param checkpoint where the listener resumes
 * @param version the stored version; never {@link CheckpointVersion#ABSENT}
 * @param updatedAt when it was saved
 */
public record StoredCheckpoint(
    CheckpointKey key, CursorCheckpoint checkpoint, CheckpointVersion version, Instant updatedAt) {

  public StoredCheckpoint {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(checkpoint, "checkpoint");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(updatedAt, "updatedAt");
    if (version.isAbsent()) {
      throw new IllegalArgumentException("a stored checkpoint has a version");
    }
  }

  /** The checkpoint's compact JSON, exactly as {@link CursorCheckpoint#toJson()} writes it. */
  public String checkpointJson() {
    return checkpoint.toJson();
  }
}
