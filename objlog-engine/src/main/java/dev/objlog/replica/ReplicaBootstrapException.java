package dev.objlog.replica;

import dev.objlog.ObjlogException;

/**
 * A replica cannot reach a state to tail from: its cursor is gone or below the retention floor
 * and no usable snapshot covers the trimmed records (none was published, or the newest one is
 * older than the floor). Terminal for the partition: publish a snapshot (and gate retention with
 * {@link dev.objlog.Objlog#snapshotGate()} so that it cannot happen again).
 *
 * <p>Thread-safety: immutable once thrown.
 */
public final class ReplicaBootstrapException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  public ReplicaBootstrapException(String message) {
    super(message);
  }
}
