package dev.objlog.spring.listener;

/**
 * What a partition consumer does when its stored checkpoint cannot be used (it belongs to another
 * stream id, is below the retention floor, or is beyond the partition's next LSN). Never a silent
 * jump: restarts are logged at WARN and saved as a new checkpoint.
 */
public enum CheckpointErrorOutcome {
  /** The partition stops (its container is then not in the expected state). */
  FAIL,
  /** Restart at the partition's oldest retained record. */
  EARLIEST,
  /** Restart at the partition's next LSN (skipping what is there). */
  LATEST,
  /**
   * Restart from the partition's newest snapshot, handed to the bean's {@link
   * SnapshotAwareListener}, then its replay LSN (the partition fails when records were trimmed and
   * no snapshot covers them). Meant for {@code expired}.
   */
  SNAPSHOT
}
