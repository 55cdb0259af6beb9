package dev.objlog.lifecycle;

/**
 * What one {@link Scheduler#run} did.
 *
 * <p>Thread-safety: immutable.
 *
 * @param tasks distinct tasks run
 * @param completed tasks that finished their work
 * @param failed tasks that failed {@code maxAttempts} times in a row
 * @param deferred tasks that still had work at the pass cap
 * @param passes runner calls
 * @param retries passes that were retries after a failure
 * @param continuations passes that continued a task that reported more work
 */
public record ScheduleResult(
    int tasks, int completed, int failed, int deferred, long passes, long retries,
    long continuations) {}
