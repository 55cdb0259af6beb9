package dev.objlog.replica;

import dev.objlog.ObjlogException;
import dev.objlog.read.CursorCheckpoint;
import org.jspecify.annotations.Nullable;

/**
 * A cursor save found another version stored than the one expected: someone else advanced the
 * cursor (a second runner of the same replica). Nothing was written. Terminal for this runner.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public final class CursorConflictException extends ObjlogException {
  private static final long serialVersionUID = 1L;
  private final transient CursorStore.@Nullable Stored current;

  public CursorConflictException(CursorCheckpoint attempted, CursorStore.Version expected,
      CursorStore.@Nullable Stored current) {
    super("cursor of partition " + Integer.toUnsignedString(attempted.partition()) + " was not saved at "
        + attempted.toJson() + ": expected version " + expected + ", but "
        + (current == null ? "nothing is stored" : "version " + current.version() + " holds "
            + current.checkpoint().toJson())
        + "; another runner of this replica advanced it");
    this.current = current;
  }

  /** What is stored now; null when nothing is. */
  public CursorStore.@Nullable Stored current() {
    return current;
  }
}
