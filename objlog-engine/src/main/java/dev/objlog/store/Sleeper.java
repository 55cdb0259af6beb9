package dev.objlog.store;

import java.time.Duration;

/**
 * Waits for a while. Adapters sleep through this rather than {@link Thread#sleep} so that tests
 * and the deterministic simulation can run them on virtual time.
 *
 * <p>Thread-safety: implementations must be safe for concurrent use.
 */
@FunctionalInterface
public interface Sleeper {
  /** Real time. */
  Sleeper SYSTEM =
      duration -> {
        if (!duration.isZero() && !duration.isNegative()) {
          Thread.sleep(duration.toMillis(), (int) (duration.toNanos() % 1_000_000));
        }
      };

  void sleep(Duration duration) throws InterruptedException;
}
