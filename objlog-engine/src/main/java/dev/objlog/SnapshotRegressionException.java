package dev.objlog;

/**
 * A snapshot marker would move backwards: the partition's newest snapshot already covers a
 * higher LSN. Snapshot markers only advance. Nothing was written.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class SnapshotRegressionException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  public SnapshotRegressionException(String message) {
    super(message);
  }
}
