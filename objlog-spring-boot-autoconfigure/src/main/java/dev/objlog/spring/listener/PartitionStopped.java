package dev.objlog.spring.listener;

/** Unwinds a partition thread that already recorded its failure. */
final class PartitionStopped extends RuntimeException {
  private static final long serialVersionUID = 1L;

  PartitionStopped() {
    super(null, null, false, false);
  }
}
