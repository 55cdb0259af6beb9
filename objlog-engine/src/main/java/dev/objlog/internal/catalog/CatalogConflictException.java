package dev.objlog.internal.catalog;

import dev.objlog.ObjlogException;

/**
 * The catalog head moved in a way this operation cannot build on: another segment owns the LSN
 * range being published, the head changed under a takeover too often, or a segment's base LSN is
 * not the head's next LSN. When a head compare-and-swap reports it, the operation did not commit
 * and the session that saw it is unusable; when a precondition reports it, nothing was written.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class CatalogConflictException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  public CatalogConflictException(String message) {
    super(message);
  }

  public CatalogConflictException(String message, Throwable cause) {
    super(message, cause);
  }
}
