package dev.objlog.spring.listener;

import dev.objlog.spring.listener.checkpoint.CheckpointKey;

/** A save after the partition's lease deadline: another member may own the partition. */
final class LeaseDeadlinePassed extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  LeaseDeadlinePassed(CheckpointKey key) {
    super("the lease deadline of " + key + " passed without a renewal; not saving the checkpoint");
  }
}
