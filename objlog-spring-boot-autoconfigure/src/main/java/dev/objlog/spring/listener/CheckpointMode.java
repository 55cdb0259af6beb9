package dev.objlog.spring.listener;

/** When a listener container saves its position. */
public enum CheckpointMode {
  /** After every record the method processed. */
  RECORD,
  /** After every batch read from the partition. */
  BATCH,
  /** After {@code ackCount} records. */
  COUNT,
  /** When {@code ackTime} passed since the last save (checked after each batch and when idle). */
  TIME,
  /** Only when the method calls {@link Acknowledgment#acknowledge()}; saved on the calling thread. */
  MANUAL
}
