package dev.objlog.store;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Outcome of {@link ObjectStore#compareAndSwap}.
 *
 * <p>Thread-safety: immutable.
 */
public sealed interface CasResult {

  /** The expected token matched and the new bytes are now the object, at {@code token}. */
  record Swapped(VersionToken token) implements CasResult {
    public Swapped {
      Objects.requireNonNull(token, "token");
    }
  }

  /**
   * The expected token did not match; nothing was written. {@code current} is the object as the
   * store held it right after the failed attempt, or {@code null} when the key does not exist, so
   * the caller can reconcile without another read.
   */
  record Conflict(@Nullable StoredObject current) implements CasResult {}

  default boolean swapped() {
    return this instanceof Swapped;
  }
}
