package dev.objlog.spring.listener.checkpoint;

import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * <b>Deprecated</b> with {@link LeaseRepository}: use {@link dev.objlog.coordination.LeaseResult}.
 *
 * <p> * The answer to {@link LeaseRepository#tryAcquire} and {@link LeaseRepository#renew}: the lease
 * was {@link Granted} (to the caller), or {@link Refused} because someone else holds it or the
 * caller's lease was lost.
 *
 * <p>Thread-safety: immutable.
 */
@Deprecated(since = "0.1.0", forRemoval = true)
public sealed interface LeaseResult {

  /** The caller holds {@code lease} now. */
  record Granted(Lease lease) implements LeaseResult {
    public Granted {
      Objects.requireNonNull(lease, "lease");
    }
  }

  /**
   * The caller does not hold the lease. {@code holder} is the valid lease of another owner, or
   * null when nobody holds it (the caller's lease was released, or taken and released since).
   */
  record Refused(@Nullable Lease holder) implements LeaseResult {
    /** The other owner's lease, if there is one. */
    public Optional<Lease> currentHolder() {
      return Optional.ofNullable(holder);
    }
  }

  default boolean granted() {
    return this instanceof Granted;
  }

  /** The granted lease, or empty when refused. */
  default Optional<Lease> grantedLease() {
    return this instanceof Granted g ? Optional.of(g.lease()) : Optional.empty();
  }
}
