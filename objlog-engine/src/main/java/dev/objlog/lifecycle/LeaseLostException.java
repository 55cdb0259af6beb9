package dev.objlog.lifecycle;

import dev.objlog.ObjlogException;

/**
 * The lifecycle state changed under this reclaimer mid-pass (its lease expired and another owner
 * took it, or someone else wrote the state). The pass stopped before its next delete; what it
 * already deleted was below the safe floor or unreachable, and the new owner continues from the
 * state it finds.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class LeaseLostException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  public LeaseLostException(String message) {
    super(message);
  }

  public LeaseLostException(String message, Throwable cause) {
    super(message, cause);
  }
}
