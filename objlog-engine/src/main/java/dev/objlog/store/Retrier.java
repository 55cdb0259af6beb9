package dev.objlog.store;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Runs store requests under a {@link RetryPolicy}. Shared by the provider adapters, so that every
 * provider retries, backs off and reports exhaustion the same way.
 *
 * <p>Thread-safety: safe for concurrent use when the random generator is (the default is).
 */
public final class Retrier {
  private final RetryPolicy policy;
  private final Sleeper sleeper;
  private final RandomGenerator random;

  public Retrier(RetryPolicy policy, Sleeper sleeper, RandomGenerator random) {
    this.policy = Objects.requireNonNull(policy, "policy");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.random = Objects.requireNonNull(random, "random");
  }

  public Retrier(RetryPolicy policy) {
    this(policy, Sleeper.SYSTEM, java.util.concurrent.ThreadLocalRandom.current());
  }

  public RetryPolicy policy() {
    return policy;
  }

  /**
   * Runs a read or an idempotent request, retrying {@link TransientStoreException}s.
   *
   * @param what a short description for the final error, e.g. {@code "GET key"}
   */
  public <T> T read(String what, Supplier<T> request) {
    return run(what, request, false);
  }

  /**
   * Runs a conditional write, retrying {@link TransientStoreException}s. Retrying a conditional
   * write is safe: if an earlier try took effect, the retry's condition fails and the caller's
   * reconciliation (comparing bytes) recognises its own write. If the budget runs out after a try
   * that may have taken effect, the failure is reported as {@link IndeterminateStoreException}.
   */
  public <T> T write(String what, Supplier<T> request) {
    return run(what, request, true);
  }

  private <T> T run(String what, Supplier<T> request, boolean isWrite) {
    boolean maybeApplied = false;
    for (int attempt = 1; ; attempt++) {
      try {
        return request.get();
      } catch (TransientStoreException e) {
        maybeApplied |= e.mayHaveTakenEffect();
        if (attempt >= policy.maxAttempts()) {
          if (isWrite && maybeApplied) {
            throw new IndeterminateStoreException(
                what + " may or may not have taken effect after " + attempt + " attempts", e);
          }
          throw new TransientStoreException(
              what + " failed after " + attempt + " attempts: " + e.getMessage(), maybeApplied, e);
        }
        pause(what, attempt, e);
      }
    }
  }

  private void pause(String what, int attempt, RuntimeException cause) {
    Duration backoff = policy.backoffAfter(attempt);
    long nanos = backoff.toNanos();
    long jittered = nanos - (long) (nanos * policy.jitter() * random.nextDouble());
    try {
      sleeper.sleep(Duration.ofNanos(jittered));
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      StoreException e = new TransientStoreException(what + " interrupted while backing off", false, cause);
      throw e;
    }
  }
}
