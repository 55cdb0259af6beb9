package dev.objlog.store;

import java.util.Objects;

/**
 * An object's bytes together with the metadata of exactly that version.
 *
 * <p>Thread-safety: immutable as long as nobody writes into {@link #bytes()}; stores hand out
 * arrays they no longer touch, and callers must not modify them either (the memory store may share
 * them between readers).
 */
public record StoredObject(ObjectMetadata metadata, byte[] bytes) {
  public StoredObject {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(bytes, "bytes");
  }

  public String key() {
    return metadata.key();
  }

  public VersionToken token() {
    return metadata.token();
  }
}
