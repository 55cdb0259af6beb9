package dev.objlog.internal.catalog;

import dev.objlog.ObjlogException;

/**
 * A head produced by a publish does not follow from the previous head and the published segments
 * (counts not raised by the group size, a moved fence, changed retention fields, a wrong last
 * segment or next LSN). It means a bug in the engine, never bad input; the session stops before
 * writing anything more.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class InvalidPublishResultException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  public InvalidPublishResultException(String message) {
    super(message);
  }
}
