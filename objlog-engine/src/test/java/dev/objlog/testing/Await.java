package dev.objlog.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits for background work a test cannot hold at a gate. The bound is a safety net against a
 * hang, never a timing assertion: a loaded machine may be slow, so it is generous.
 *
 * <p>Thread-safety: stateless.
 */
public final class Await {
  /** How long {@link #until} waits before it fails. */
  public static final Duration SAFETY_NET = Duration.ofSeconds(30);

  private Await() {}

  /** Polls {@code condition} until it holds; fails naming {@code what} after {@link #SAFETY_NET}. */
  public static void until(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + SAFETY_NET.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError(what + " within " + SAFETY_NET.toSeconds() + " s");
      }
      Thread.sleep(2);
    }
  }
}
