package dev.objlog.lifecycle;

/** What a reclaimer pass does. */
public enum Operation {
  /** {@link Reclaimer#reclaim}: ordered deletes below the safe floor, and staging cleanup. */
  RECLAIM,
  /** {@link Reclaimer#scrub}: orphan segments and unreachable pages (slower cadence). */
  SCRUB
}
