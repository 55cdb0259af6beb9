package dev.objlog;

/**
 * A caller passed a value objlog cannot accept (an invalid stream id, a record over a size limit,
 * LSNs that are not contiguous). Nothing was written; fix the input.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class InvalidArgumentException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  public InvalidArgumentException(String message) {
    super(message);
  }
}
