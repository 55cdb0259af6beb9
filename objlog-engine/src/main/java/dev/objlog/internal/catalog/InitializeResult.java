package dev.objlog.internal.catalog;

import java.util.Objects;

/**
 * Outcome of {@link PartitionCatalog#initializePartition}.
 *
 * <p>Thread-safety: immutable.
 *
 * @param head the partition's head after the call
 * @param created true if this call created the head (or found bytes identical to the ones it
 *     wrote, which a retry after a lost reply cannot tell apart); false if a head existed
 */
public record InitializeResult(HeadSnapshot head, boolean created) {
  public InitializeResult {
    Objects.requireNonNull(head, "head");
  }
}
