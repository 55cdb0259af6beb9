package dev.objlog.spring.listener.checkpoint;

import dev.objlog.read.CursorCheckpoint;
import dev.objlog.replica.CursorConflictException;
import dev.objlog.replica.CursorStore;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link CheckpointRepository} as the engine's {@link CursorStore}, so that a {@link
 * dev.objlog.replica.Replica} in a Spring application keeps its cursors where the listeners keep
 * their checkpoints (a database table, the bucket, memory): the cursors of one owner (a replica
 * id, like a listener id) on one configured stream. Versions pass through unchanged; a {@link
 * CheckpointConflictException} becomes a {@link CursorConflictException}. With the JDBC repository
 * a save joins the caller's transaction, as a listener's does.
 *
 * <p>Thread-safety: as safe as the repository (all of ours are safe for concurrent use).
 */
public final class CheckpointCursorStore implements CursorStore {
  private final CheckpointRepository repository;
  private final String owner;
  private final String streamName;

  /**
   * @param owner the id the checkpoints are kept under (the rules of {@link CheckpointKey})
   * @param streamName the stream's configured name
   * @throws IllegalArgumentException when the owner or the stream name breaks the rules of {@link
   *     CheckpointKey}
   */
  public CheckpointCursorStore(CheckpointRepository repository, String owner, String streamName) {
    this.repository = Objects.requireNonNull(repository, "repository");
    CheckpointKey.of(owner, streamName, 0); // checks both now, not at the first save
    this.owner = owner;
    this.streamName = streamName;
  }

  @Override
  public Optional<Stored> load(int partition) {
    return repository.load(CheckpointKey.of(owner, streamName, partition))
        .map(s -> new Stored(s.checkpoint(), new Version(s.version().value())));
  }

  @Override
  public Version save(CursorCheckpoint checkpoint, Version expected) {
    Objects.requireNonNull(checkpoint, "checkpoint");
    Objects.requireNonNull(expected, "expected");
    try {
      return new Version(repository.save(CheckpointKey.of(owner, streamName, checkpoint.partition()), checkpoint,
          CheckpointVersion.of(expected.value())).value());
    } catch (CheckpointConflictException e) {
      CursorConflictException conflict = new CursorConflictException(checkpoint, expected, load(checkpoint.partition())
          .orElse(null));
      conflict.initCause(e);
      throw conflict;
    }
  }

  @Override
  public String toString() {
    return "CheckpointCursorStore[" + owner + "@" + streamName + " in " + repository + "]";
  }
}
