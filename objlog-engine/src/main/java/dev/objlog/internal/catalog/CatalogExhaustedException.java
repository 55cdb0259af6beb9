package dev.objlog.internal.catalog;

import dev.objlog.ObjlogException;
import java.util.Objects;

/**
 * A counter of the partition cannot advance any further: the writer epoch or the generation is
 * at 2^64−1, the next LSN would reach the reserved LSN 2^64−1, or the tree would need an open
 * index level above 64. Terminal for the partition under this format; nothing was written.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class CatalogExhaustedException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  /** What ran out. */
  public enum Resource {
    /** The fence: writer epoch 2^64−1 cannot be taken over. */
    WRITER_EPOCH,
    /** The commit counter: generation 2^64−1 admits no further commit. */
    GENERATION,
    /** The LSN space: a segment may not end at 2^64−2, since next_lsn would be reserved. */
    LSN,
    /** The tree: the level-64 open section is full. */
    INDEX_LEVELS
  }

  private final Resource resource;

  public CatalogExhaustedException(Resource resource, String message) {
    super(message);
    this.resource = Objects.requireNonNull(resource, "resource");
  }

  public Resource resource() {
    return resource;
  }
}
