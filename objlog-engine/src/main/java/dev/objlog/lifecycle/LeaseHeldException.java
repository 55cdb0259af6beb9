package dev.objlog.lifecycle;

import dev.objlog.ObjlogException;

/**
 * Another reclaimer holds the partition's lifecycle lease and it has not expired. Nothing was
 * done; try again later (the {@link Scheduler} retries with backoff).
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class LeaseHeldException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  private final String ownerId;
  private final long leaseUntilUnixMs;

  public LeaseHeldException(String message, String ownerId, long leaseUntilUnixMs) {
    super(message);
    this.ownerId = ownerId;
    this.leaseUntilUnixMs = leaseUntilUnixMs;
  }

  /** The owner holding the lease (32 hex digits). */
  public String ownerId() {
    return ownerId;
  }

  /** When its lease expires (Unix ms). */
  public long leaseUntilUnixMs() {
    return leaseUntilUnixMs;
  }
}
