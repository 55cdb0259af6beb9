package dev.objlog.internal.catalog;

import dev.objlog.ObjlogException;

/**
 * A writer takeover may or may not have raised the fence: its head compare-and-swap got no clear
 * answer and the head could not be read back. Nobody can tell whether this writer owns the
 * partition; open the writer again (a new takeover raises the fence past any half-done one).
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class FenceIndeterminateException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  public FenceIndeterminateException(String message, Throwable cause) {
    super(message, cause);
  }
}
