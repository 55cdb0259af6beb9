package dev.objlog.spring.core;

import dev.objlog.WriterState;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What this instance's {@link ObjlogTemplate} knows of its writer of one partition, from memory
 * only.
 *
 * <p>Thread-safety: immutable.
 *
 * @param streamName the configured stream name
 * @param partition the partition
 * @param state the writer's state
 * @param writer the engine writer's snapshot, or null when none is open
 * @param lastCommit when a send to this partition last became durable, or null
 * @param pendingSends sends accepted but not yet durable
 * @param pendingSince when the oldest of those was accepted (roughly), or null when none is pending
 * @param opens writers opened for this partition so far
 * @param failure the writer's terminal failure, or null
 */
public record LocalWriterStatus(
    String streamName,
    int partition,
    State state,
    @Nullable WriterState writer,
    @Nullable Instant lastCommit,
    long pendingSends,
    @Nullable Instant pendingSince,
    int opens,
    @Nullable String failure) {

  public LocalWriterStatus {
    Objects.requireNonNull(streamName, "streamName");
    Objects.requireNonNull(state, "state");
  }

  /** The states of a partition's writer in this instance. */
  public enum State {
    /**
     * The partition is outside this instance's writer partitions, or (leases) it holds no lease of
     * it and no writer of it is open. While the writer of a lease just given up (or past its
     * deadline) is still closing, the writer's own state shows; sends are refused all the same.
     */
    NOT_WRITTEN_HERE,
    /** This instance writes the partition but has not needed a writer yet (opened on first send). */
    NOT_OPENED,
    /** The writer is open and owns the partition, as far as this instance knows. */
    OPEN,
    /** Another writer took the partition over; sends fail until a re-open (if configured). */
    FENCED,
    /** The writer stopped on another terminal failure; the next send opens a new one. */
    FAILED,
    /** The template closed the writer (shutdown). */
    CLOSED
  }
}
