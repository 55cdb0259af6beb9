package dev.objlog.internal.catalog;

import dev.objlog.format.catalog.LeafEntry;

/**
 * Told of each part of a catalog tree as {@link PartitionCatalog#verifyTree(dev.objlog.format.catalog.Head,
 * TreeVisitor)} checks it, in traversal order (oldest segment first).
 *
 * <p>Thread-safety: called on the verifying thread only.
 */
public interface TreeVisitor {
  /** A visitor that ignores everything. */
  TreeVisitor NONE = new TreeVisitor() {};

  /** A sealed page (leaf or index) was read and passed its rules. */
  default void page(String key) {}

  /** A segment's leaf entry passed the ordering rules. */
  default void segment(LeafEntry entry) {}
}
