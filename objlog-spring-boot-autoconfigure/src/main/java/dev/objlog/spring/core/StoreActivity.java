package dev.objlog.spring.core;

import dev.objlog.store.StoreException;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The outcomes of store requests objlog's Spring beans made recently: the template's writer
 * openings and commits, and the actuator endpoint's head reads. Health reads it instead of asking
 * the store, so a probe never costs a request.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class StoreActivity {
  private final Clock clock;
  private @Nullable Instant lastSuccess;
  private @Nullable Instant lastFailure;
  private @Nullable Instant failingSince;
  private @Nullable String lastError;

  public StoreActivity(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  public StoreActivity() {
    this(Clock.systemUTC());
  }

  /** A request to the store succeeded. */
  public synchronized void success() {
    lastSuccess = clock.instant();
    failingSince = null;
  }

  /** A request failed; only store failures ({@link StoreException} in the cause chain) count. */
  public void failure(Throwable failure) {
    StoreException cause = storeCause(failure);
    if (cause != null) {
      synchronized (this) {
        Instant now = clock.instant();
        lastFailure = now;
        lastError = cause.getClass().getSimpleName() + ": " + cause.getMessage();
        if (failingSince == null) {
          failingSince = now;
        }
      }
    }
  }

  /** The first {@link StoreException} in the cause chain, if any. */
  static @Nullable StoreException storeCause(@Nullable Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof StoreException e) {
        return e;
      }
    }
    return null;
  }

  public synchronized Snapshot snapshot() {
    return new Snapshot(lastSuccess, lastFailure, failingSince, lastError);
  }

  /**
   * @param lastSuccess when a request last succeeded, or null if none did
   * @param lastFailure when a request last failed, or null if none did
   * @param failingSince when requests started failing without a success since, or null if the
   *     last outcome was a success
   * @param lastError the last failure's type and message
   */
  public record Snapshot(
      @Nullable Instant lastSuccess,
      @Nullable Instant lastFailure,
      @Nullable Instant failingSince,
      @Nullable String lastError) {}
}
