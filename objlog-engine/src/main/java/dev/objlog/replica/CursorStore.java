package dev.objlog.replica;

import dev.objlog.Objlog;
import dev.objlog.read.CursorCheckpoint;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a replica keeps its position in each partition: one {@link CursorCheckpoint} per
 * partition, saved with optimistic concurrency so that two runners cannot both advance it.
 *
 * <p>Usage: {@link #load} before tailing, remember the {@link Stored#version()}, and pass it to
 * every {@link #save}; pass the returned version to the next save. Start with {@link
 * Version#ABSENT} when nothing was stored.
 *
 * <p>Implementations here: {@link #inBucket} ({@code <catalogDir>consumers/<replica-id>/checkpoint.json}
 * beside the partition's catalog, the same document the Spring bucket checkpoint repository keeps)
 * and {@link #inDirectory} (a local directory). The Spring module adapts its {@code
 * CheckpointRepository} to this interface.
 *
 * <p>Error contract: {@link CursorConflictException} when the stored version is not the expected
 * one (nothing written; terminal for this runner: another one advanced the cursor). Storage
 * failures are the storage's own unchecked exceptions; an {@link
 * dev.objlog.store.IndeterminateStoreException} means the save may or may not have landed (load
 * again to find out).
 *
 * <p>Thread-safety: implementations are safe for concurrent use.
 */
public interface CursorStore {

  /** The stored cursor of {@code partition}, or empty when none was saved. */
  Optional<Stored> load(int partition);

  /**
   * Stores {@code checkpoint} (for its own partition) if the stored version is still {@code
   * expected} ({@link Version#ABSENT}: if nothing is stored yet).
   *
   * @return the new version, to pass to the next save
   * @throws CursorConflictException when another version is stored; nothing was written
   */
  Version save(CursorCheckpoint checkpoint, Version expected);

  /**
   * The version of a stored cursor as its store reports it: opaque, changing on every save.
   *
   * <p>Thread-safety: immutable.
   *
   * @param value the store's version, or "" for {@link #ABSENT}
   */
  record Version(String value) {
    /** Nothing stored yet. */
    public static final Version ABSENT = new Version("");

    public Version {
      Objects.requireNonNull(value, "value");
    }

    public boolean isAbsent() {
      return value.isEmpty();
    }

    @Override
    public String toString() {
      return isAbsent() ? "<absent>" : value;
    }
  }

  /**
   * A cursor as its store holds it.
   *
   * <p>Thread-safety: immutable.
   *
   * @param checkpoint where the replica resumes
   * @param version the stored version, never {@link Version#ABSENT}
   */
  record Stored(CursorCheckpoint checkpoint, Version version) {
    public Stored {
      Objects.requireNonNull(checkpoint, "checkpoint");
      Objects.requireNonNull(version, "version");
      if (version.isAbsent()) {
        throw new IllegalArgumentException("a stored cursor has a version");
      }
    }
  }

  /**
   * Cursors of replica {@code replicaId} in the log's own bucket, at {@code
   * <catalogDir>consumers/<replicaId>/checkpoint.json} of each partition: the checkpoint JSON plus
   * {@code updated_unix_ms} (the log clock), written by compare-and-swap.
   *
   * @param replicaId 1 to 255 characters without {@code /}, {@code \} or control characters,
   *     neither {@code .} nor {@code ..}
   * @throws dev.objlog.InvalidArgumentException for an id outside those rules
   */
  static CursorStore inBucket(Objlog log, String replicaId) {
    return DocumentCursorStore.inBucket(log, replicaId);
  }

  /**
   * Cursors of replica {@code replicaId} in a local directory (one directory per stream), at
   * {@code <directory>/<replicaId>/p<partition>/checkpoint.json}; the directory is opened as a
   * filesystem object store, so saves are atomic and compare-and-swapped across processes on one
   * machine.
   *
   * @throws dev.objlog.InvalidArgumentException for an id outside the rules of {@link #inBucket}
   */
  static CursorStore inDirectory(Path directory, String replicaId) {
    return DocumentCursorStore.inDirectory(directory, replicaId);
  }
}
