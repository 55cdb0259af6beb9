package dev.objlog.store;

import java.util.Objects;

/**
 * Outcome of a create-only write ({@link ObjectStore#putIfAbsent} or {@link ObjectUpload#complete}).
 * "Already exists" is an answer, not an error: after a retried or indeterminate write the caller
 * compares bytes to learn whether the existing object is its own.
 *
 * <p>Thread-safety: immutable.
 */
public sealed interface CreateResult {

  /** The object did not exist and now holds the written bytes. */
  record Created(VersionToken token) implements CreateResult {
    public Created {
      Objects.requireNonNull(token, "token");
    }
  }

  /** An object already existed under the key; nothing was written. */
  record AlreadyExists() implements CreateResult {}

  default boolean created() {
    return this instanceof Created;
  }
}
