package dev.objlog;

/**
 * The partition has used its whole LSN space: the last LSN a record can be committed with is
 * 2^64−3 (the head's next LSN must stay below the reserved 2^64−1), and it was assigned. No further record can ever be appended to this partition. Records accepted before
 * are unaffected and still commit.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class LsnSpaceExhaustedException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  public LsnSpaceExhaustedException(String message) {
    super(message);
  }
}
