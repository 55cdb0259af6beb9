package dev.objlog.lifecycle;

/**
 * Told about every pass a {@link Scheduler} runs. Called from the scheduler's threads; an
 * exception it throws is ignored.
 *
 * <p>Thread-safety: implementations must be safe for concurrent use.
 */
@FunctionalInterface
public interface SchedulerObserver {
  /** An observer that ignores everything. */
  SchedulerObserver NONE = event -> {};

  void onEvent(SchedulerEvent event);
}
