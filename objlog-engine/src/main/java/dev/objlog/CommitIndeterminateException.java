package dev.objlog;

/**
 * A publish may or may not have committed: the catalog head write got no clear answer and reading
 * the head back could not settle it. Terminal for the writer, which never mints a second segment
 * for a range that may already be committed. Once the partition is taken over (a new writer opened),
 * {@link Objlog#commitStatus} tells for each record whether it is in the log.
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
