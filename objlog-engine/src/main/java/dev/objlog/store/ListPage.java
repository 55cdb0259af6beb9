package dev.objlog.store;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One page of a listing, in byte-lexicographic key order.
 *
 * <p>Thread-safety: immutable.
 *
 * @param entries the objects of this page
 * @param nextAfterKey pass as {@code afterKey} to continue, or {@code null} when the listing is
 *     complete
 */
public record ListPage(List<ObjectMetadata> entries, @Nullable String nextAfterKey) {
  public ListPage {
    entries = List.copyOf(Objects.requireNonNull(entries, "entries"));
  }

  public boolean hasMore() {
    return nextAfterKey != null;
  }
}
