package dev.objlog.internal.catalog;

import dev.objlog.format.catalog.Head;
import java.util.Objects;

/**
 * Outcome of {@link FencedSession#publish}: the group is committed.
 *
 * <p>Thread-safety: immutable.
 *
 * @param head the head this commit wrote (the group's last segment is its last segment); the
 *     store may already hold a later head if the commit was recognised by reconciliation
 * @param segments how many segments the commit added
 * @param reconciled true if the commit was recognised by reading the head back after an
 *     ambiguous or conflicting compare-and-swap, rather than from a clean swap
 */
public record PublishResult(Head head, int segments, boolean reconciled) {
  public PublishResult {
    Objects.requireNonNull(head, "head");
  }
}
