package dev.objlog.lifecycle;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One pass of a scheduled task.
 *
 * <p>Thread-safety: immutable.
 *
 * @param task the task
 * @param attempt consecutive failed attempts including this one (0 if this pass succeeded)
 * @param pass the task's pass number in this run, from 1
 * @param duration how long the pass took
 * @param result the pass's result, or null if it failed
 * @param error why it failed, or null
 * @param nextDelay when the task runs again (retry or continuation); zero when it does not
 * @param finalPass whether the task is finished for this run (completed, failed or deferred)
 * @param deferred whether the task still had work at the pass cap
 */
public record SchedulerEvent(
    Task task,
    int attempt,
    int pass,
    Duration duration,
    @Nullable ReclaimResult result,
    @Nullable Throwable error,
    Duration nextDelay,
    boolean finalPass,
    boolean deferred) {

  public SchedulerEvent {
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(nextDelay, "nextDelay");
  }
}
