package dev.objlog;

/**
 * A publish may or may not have committed: the catalog head write got no clear answer and reading
 * the head back could not settle it. Terminal for the writer, which never mints a second segment
 * for a range that may already be committed; a new writer's takeover and the catalog itself tell
 * the final truth.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class CommitIndeterminateException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  public CommitIndeterminateException(String message, Throwable cause) {
    super(message, cause);
  }

  public CommitIndeterminateException(String message) {
    super(message);
  }
}
