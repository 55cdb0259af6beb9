package dev.objlog.internal.catalog;

import dev.objlog.format.catalog.Head;
import dev.objlog.store.VersionToken;
import java.util.Objects;

/**
 * A validated head together with the store token of exactly the version it was decoded from. The
 * token is {@link VersionToken#ABSENT} for the synthetic empty head of a partition that has no
 * {@code head.plc} yet.
 *
 * <p>Thread-safety: immutable.
 */
public record HeadSnapshot(Head head, VersionToken token) {
  public HeadSnapshot {
    Objects.requireNonNull(head, "head");
    Objects.requireNonNull(token, "token");
  }
}
