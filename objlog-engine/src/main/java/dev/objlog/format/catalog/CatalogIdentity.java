package dev.objlog.format.catalog;

import java.util.Objects;

/**
 * What a reader expects a catalog object to belong to: its partition, its stream key and (heads
 * only) its data-root key. Decoders compare these after the object itself has validated, so a
 * head or page copied under another stream's prefix is rejected.
 *
 * <p>Thread-safety: immutable.
 *
 * @param partition the partition (u32 held in an int)
 * @param streamKey SHA-256 of the canonical stream id
 * @param dataRootKey SHA-256 of the normalized data root; pages do not carry it
 */
public record CatalogIdentity(int partition, Key256 streamKey, Key256 dataRootKey) {
  public CatalogIdentity {
    Objects.requireNonNull(streamKey, "streamKey");
    Objects.requireNonNull(dataRootKey, "dataRootKey");
  }
}
