package dev.objlog;

import java.util.Objects;

/**
 * What {@link Objlog#requestRetention} left in the partition's retention mailbox. A request only
 * records intent: nothing becomes unreadable until the partition's writer applies it ({@code
 * PartitionWriter.applyRetention()}), and nothing is deleted until a {@link
 * dev.objlog.lifecycle.Reclaimer} runs after the delete delay.
 *
 * <p>Thread-safety: immutable.
 *
 * @param partition the stream partition (u32)
 * @param policyVersion the policy version now in the mailbox (u64; 0 if there is none)
 * @param beforeLsn the before-LSN now in the mailbox (u64): records below it may be trimmed
 * @param createdUnixMs when the mailbox's current request was written (log clock)
 * @param requestedBeforeLsn what the caller asked for, before any {@link RetentionGate} lowered it
 * @param outcome what this call did
 */
public record RetentionRequest(
    int partition,
    long policyVersion,
    long beforeLsn,
    long createdUnixMs,
    long requestedBeforeLsn,
    Outcome outcome) {

  public RetentionRequest {
    Objects.requireNonNull(outcome, "outcome");
  }

  /** What a request did to the mailbox. */
  public enum Outcome {
    /** The mailbox did not exist; it now holds this request. */
    CREATED,
    /** The mailbox held an older request; it now holds this one. */
    ADVANCED,
    /** The mailbox already held exactly this request (a retry); nothing was written. */
    UNCHANGED,
    /**
     * The gate lowered the request to or below what the mailbox already holds (or to 0); nothing
     * was written. Ask again later with a new policy version.
     */
    HELD_BACK
  }

  /** Whether a gate lowered the request. */
  public boolean clamped() {
    return beforeLsn != requestedBeforeLsn;
  }
}
