package dev.objlog.store;

import java.time.Instant;
import java.util.Objects;

/**
 * What a store knows about one object without reading it.
 *
 * <p>Thread-safety: immutable.
 *
 * @param key the object key
 * @param size the size in bytes
 * @param token the current version token
 * @param lastModified when the store last wrote the object (store clock, advisory)
 */
public record ObjectMetadata(String key, long size, VersionToken token, Instant lastModified) {
  public ObjectMetadata {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(lastModified, "lastModified");
    if (size < 0) {
      throw new IllegalArgumentException("size must not be negative: " + size);
    }
  }
}
