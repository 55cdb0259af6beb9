package dev.objlog.store;

import java.util.Objects;

/**
 * Outcome of {@link ObjectStore#getIfChanged}: polling a small object without transferring it
 * when it has not changed.
 *
 * <p>Thread-safety: immutable.
 */
public sealed interface ConditionalGetResult {

  /** The object still has the known token; no bytes were transferred. */
  record Unchanged() implements ConditionalGetResult {}

  /** The object has a different token than the known one (or the known token was absent). */
  record Changed(StoredObject object) implements ConditionalGetResult {
    public Changed {
      Objects.requireNonNull(object, "object");
    }
  }

  /** No object exists under the key. */
  record Missing() implements ConditionalGetResult {}
}
