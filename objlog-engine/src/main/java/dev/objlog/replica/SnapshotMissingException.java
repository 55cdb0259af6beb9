package dev.objlog.replica;

import dev.objlog.ObjlogException;

/**
 * A snapshot marker names a payload that its {@link SnapshotStore} does not hold (deleted, or
 * written to another store). Terminal for that marker: publish a new snapshot.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public final class SnapshotMissingException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  public SnapshotMissingException(String message, Throwable cause) {
    super(message, cause);
  }
}
